package org.medjava.viewer.ui;

import java.awt.Component;
import java.awt.event.KeyEvent;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.swing.AbstractAction;
import javax.swing.Action;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JOptionPane;
import javax.swing.KeyStroke;
import javax.swing.SwingUtilities;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.model.ModalityPresets;
import org.medjava.viewer.model.UserPresets;
import org.medjava.viewer.model.WindowLevel;

/**
 * What the window preset box offers for an image after the file's own windows and the full range: the modality's
 * presets (CT's Hounsfield windows; for other modalities percentiles of the image's values, computed in the
 * background), then the user's saved presets for the modality ("My: …"). After a drag the box shows "custom" with
 * the window now applied; picking anything else drops it. Keys 1–9 on the image pick the first nine entries.
 * Event thread only.
 */
final class PresetBox {
    /** Prefix of the user's own presets in the box. */
    static final String MINE = "My: ";

    /** The window set by a drag, not by a preset. */
    record Custom(Window window) {
        @Override
        public String toString() {
            return "custom (" + WindowLevel.format(window) + ")";
        }
    }

    private final JComboBox<Object> box;
    private final Tasks tasks;
    private final UserPresets saved;
    private final Consumer<String> status;
    private int generation;

    PresetBox(JComboBox<Object> box, Tasks tasks, UserPresets saved, Consumer<String> status) {
        this.box = box;
        this.tasks = tasks;
        this.saved = saved;
        this.status = status;
        box.addActionListener(e -> {
            if (!(box.getSelectedItem() instanceof Custom)) {
                SwingUtilities.invokeLater(this::dropCustom);
            }
        });
    }

    /**
     * Appends the presets of grey DICOM {@code dicom}'s modality and the user's own for it to the box, which already
     * holds the file's windows and the full range; the caller keeps the box from applying entries while it fills.
     */
    void addModalityPresets(DicomImage dicom) {
        int mine = ++generation;
        String modality = dicom.attributes().modality();
        boolean ct = modality != null && modality.trim().equalsIgnoreCase("CT");
        if (ct) {
            WindowLevel.CT_PRESETS.forEach(box::addItem);
        }
        int modalityAt = box.getItemCount();
        userPresets(modality).forEach(box::addItem);
        if (!ct) { // percentiles of the image's values: computed off the event thread, then inserted in place
            tasks.background(p -> ModalityPresets.forModality(modality, ModalityPresets.Distribution.of(
                    dicom.storedValues(), dicom.rescaleSlope(), dicom.rescaleIntercept())), presets -> {
                if (mine == generation) {
                    for (int i = 0; i < presets.size(); i++) {
                        box.insertItemAt(presets.get(i), modalityAt + i);
                    }
                }
            }, e -> status.accept("Presets for " + modality + ": " + e.getMessage()));
        }
    }

    private List<WindowLevel.Preset> userPresets(String modality) {
        return saved.list(modality).stream().map(p -> new WindowLevel.Preset(MINE + p.name(), p.window())).toList();
    }

    /** Shows "custom" with {@code window} (after a drag changed it). */
    void showCustom(Window window) {
        Object last = box.getItemCount() == 0 ? null : box.getItemAt(box.getItemCount() - 1);
        Custom custom = new Custom(window);
        // select the new entry before dropping the old: removing the selected entry would select (and apply) another
        box.addItem(custom);
        box.setSelectedItem(custom);
        if (last instanceof Custom) {
            box.removeItem(last);
        }
    }

    private void dropCustom() {
        for (int i = box.getItemCount() - 1; i >= 0; i--) {
            if (box.getItemAt(i) instanceof Custom && box.getSelectedIndex() != i) {
                box.removeItemAt(i);
            }
        }
    }

    /** Binds keys 1–9 on {@code target} (the image view, when it has the focus) to the box's first nine entries. */
    void bindDigits(JComponent target) {
        for (int d = 1; d <= 9; d++) {
            int index = d - 1;
            String name = "preset" + d;
            target.getInputMap(JComponent.WHEN_FOCUSED).put(KeyStroke.getKeyStroke(KeyEvent.VK_0 + d, 0), name);
            target.getInputMap(JComponent.WHEN_FOCUSED).put(KeyStroke.getKeyStroke(KeyEvent.VK_NUMPAD0 + d, 0), name);
            target.getActionMap().put(name, new AbstractAction(name) {
                private static final long serialVersionUID = 1L;

                @Override
                public void actionPerformed(java.awt.event.ActionEvent e) {
                    if (box.isEnabled() && index < box.getItemCount() && !(box.getItemAt(index) instanceof Custom)) {
                        box.setSelectedIndex(index);
                    }
                }
            });
        }
    }

    /** "Save window as preset…": asks a name and saves the current window for the image's modality. */
    Action saveAction(Component parent, Supplier<ImageDocument> doc) {
        return new AbstractAction("Save window as preset…") {
            private static final long serialVersionUID = 1L;

            @Override
            public void actionPerformed(java.awt.event.ActionEvent e) {
                ImageDocument d = doc.get();
                if (d == null || !d.windowLive() || d.window() == null) {
                    status.accept("Open a grey DICOM image (with a live window) first");
                    return;
                }
                String modality = d.image().dicom().attributes().modality();
                String name = JOptionPane.showInputDialog(parent, "Name of the preset for " + label(modality)
                        + " images, with " + WindowLevel.format(d.window()) + ":", "Save window as preset",
                        JOptionPane.QUESTION_MESSAGE);
                if (name == null || name.isBlank()) {
                    return;
                }
                try {
                    saved.save(modality, new WindowLevel.Preset(name.trim(), d.window()));
                    status.accept("Saved preset \"" + name.trim() + "\" for " + label(modality) + " in "
                            + saved.file());
                    refreshUserPresets(modality);
                } catch (IOException | IllegalArgumentException ex) {
                    Dialogs.error(parent, "Could not save the preset", ex.getMessage());
                }
            }
        };
    }

    /** "Delete a saved preset…": picks one of the modality's saved presets and deletes it. */
    Action deleteAction(Component parent, Supplier<ImageDocument> doc) {
        return new AbstractAction("Delete a saved preset…") {
            private static final long serialVersionUID = 1L;

            @Override
            public void actionPerformed(java.awt.event.ActionEvent e) {
                ImageDocument d = doc.get();
                String modality = d == null || !d.image().isDicom() ? null : d.image().dicom().attributes().modality();
                List<WindowLevel.Preset> mine = modality == null ? List.of() : saved.list(modality);
                if (mine.isEmpty()) {
                    status.accept("No saved presets for " + (modality == null ? "this image" : label(modality)));
                    return;
                }
                Object pick = JOptionPane.showInputDialog(parent, "Delete which preset of " + label(modality) + "?",
                        "Delete a saved preset", JOptionPane.QUESTION_MESSAGE, null,
                        mine.stream().map(WindowLevel.Preset::name).toArray(), null);
                if (pick == null) {
                    return;
                }
                try {
                    saved.delete(modality, pick.toString());
                    status.accept("Deleted preset \"" + pick + "\"");
                    refreshUserPresets(modality);
                } catch (IOException ex) {
                    Dialogs.error(parent, "Could not delete the preset", ex.getMessage());
                }
            }
        };
    }

    /** Replaces the user's presets in the box by those saved now (before a custom entry, if any). */
    private void refreshUserPresets(String modality) {
        for (int i = box.getItemCount() - 1; i >= 0; i--) {
            if (box.getItemAt(i) instanceof WindowLevel.Preset p && p.name().startsWith(MINE)
                    && box.getSelectedIndex() != i) {
                box.removeItemAt(i);
            }
        }
        int at = box.getItemCount();
        while (at > 0 && box.getItemAt(at - 1) instanceof Custom) {
            at--;
        }
        for (WindowLevel.Preset p : userPresets(modality)) {
            boolean shown = false;
            for (int i = 0; i < box.getItemCount(); i++) {
                shown |= p.equals(box.getItemAt(i));
            }
            if (!shown) {
                box.insertItemAt(p, at++);
            }
        }
    }

    private static String label(String modality) {
        return modality == null || modality.isBlank() ? "unknown-modality" : modality.trim();
    }
}
