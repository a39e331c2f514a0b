package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.FlowLayout;
import javax.swing.BorderFactory;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JSlider;
import javax.swing.JSpinner;
import javax.swing.JToggleButton;
import javax.swing.SpinnerNumberModel;

/**
 * The controls under the image while a stack is open: a slider over its images with "n / N", cine play/stop with
 * its rate in images per second, and what the prefetch cache holds. Hidden when no stack is open. Event thread.
 */
final class StackBar extends JPanel {
    private static final long serialVersionUID = 1L;
    static final double DEFAULT_FPS = 10;

    private final JSlider slider = new JSlider(1, 1, 1);
    private final JLabel position = new JLabel();
    private final JToggleButton play = new JToggleButton("▶ Cine");
    private final JSpinner fps = new JSpinner(new SpinnerNumberModel(DEFAULT_FPS, 1, 60, 1));
    private final JLabel cache = new JLabel();
    private final transient StackController stack;
    private boolean updating;

    StackBar(StackController stack) {
        super(new BorderLayout(8, 0));
        this.stack = stack;
        setName("stackBar");
        setBorder(BorderFactory.createEmptyBorder(2, 8, 2, 8));
        slider.setName("stackSlider");
        slider.setFocusable(false); // the keys belong to the image
        slider.addChangeListener(e -> {
            if (!updating) {
                stack.go(slider.getValue() - 1);
            }
        });
        position.setName("stackPosition");
        play.setName("cineButton");
        play.setToolTipText("Play the stack as a movie at the rate on the right (images a second); again to stop");
        play.setFocusable(false);
        play.addActionListener(e -> {
            if (play.isSelected()) {
                stack.startCine(rate());
            } else {
                stack.stopCine();
            }
        });
        fps.setName("cineFps");
        fps.setToolTipText("Cine rate: images a second");
        fps.addChangeListener(e -> stack.setCineRate(rate()));
        cache.setName("stackCache");
        cache.setToolTipText("Images loaded around the one shown, in a cache bounded in memory");
        JPanel left = new JPanel(new FlowLayout(FlowLayout.LEFT, 6, 0));
        left.add(play);
        left.add(fps);
        left.add(new JLabel("img/s"));
        left.add(position);
        add(left, BorderLayout.WEST);
        add(slider, BorderLayout.CENTER);
        add(cache, BorderLayout.EAST);
        setVisible(false);
    }

    double rate() {
        return ((Number) fps.getValue()).doubleValue();
    }

    /** Shows the stack's state. */
    void refresh() {
        boolean open = stack.isOpen();
        setVisible(open);
        if (!open) {
            play.setSelected(false);
            return;
        }
        updating = true;
        try {
            int n = stack.count();
            int at = stack.wanted() + 1;
            if (slider.getMaximum() != n) {
                slider.setMaximum(n);
            }
            slider.setValue(Math.max(1, at));
            position.setText(at + " / " + n + (stack.index() != stack.wanted() ? " (loading)" : ""));
            play.setSelected(stack.cineRunning());
            play.setText(stack.cineRunning() ? "■ Stop" : "▶ Cine");
            cache.setText(stack.cacheFacts());
        } finally {
            updating = false;
        }
    }
}
