package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HistoryTest {

    @Test
    void undoAndRedoWalkTheStates() {
        History<String> h = new History<>("original", 0, 1000);
        h.push("blur", 10);
        h.push("blur+sharpen", 10);
        assertThat(h.undo()).isEqualTo("blur");
        assertThat(h.undo()).isEqualTo("original");
        assertThat(h.canUndo()).isFalse();
        assertThat(h.redo()).isEqualTo("blur");
        assertThat(h.current()).isEqualTo("blur");
        assertThat(h.canRedo()).isTrue();
    }

    @Test
    void aNewStateAfterUndoDiscardsTheRedoBranch() {
        History<String> h = new History<>("original", 0, 1000);
        h.push("a", 1);
        h.push("b", 1);
        h.undo();
        h.push("c", 1);
        assertThat(h.canRedo()).isFalse();
        assertThat(h.size()).isEqualTo(3);
        assertThat(h.undo()).isEqualTo("a");
    }

    @Test
    void overBudgetDropsTheOldestIntermediateStatesButKeepsTheOriginal() {
        History<String> h = new History<>("original", 0, 25);
        h.push("a", 10);
        h.push("b", 10);
        h.push("c", 10);
        assertThat(h.dropped()).isEqualTo(1);
        assertThat(h.totalBytes()).isEqualTo(20);
        assertThat(h.undo()).isEqualTo("b");
        assertThat(h.undo()).isEqualTo("original");
    }

    @Test
    void theLatestStateStaysEvenWhenItAloneExceedsTheBudget() {
        History<String> h = new History<>("original", 0, 5);
        h.push("huge", 100);
        assertThat(h.current()).isEqualTo("huge");
        assertThat(h.undo()).isEqualTo("original");
    }

    @Test
    void undoWithNothingToUndoSaysSo() {
        History<String> h = new History<>("original", 0, 5);
        assertThatThrownBy(h::undo).hasMessageContaining("nothing to undo");
        assertThatThrownBy(h::redo).hasMessageContaining("nothing to redo");
    }
}
