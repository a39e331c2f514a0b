package org.medjava.viewer.ui;

import java.awt.Dimension;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JSpinner;
import javax.swing.SpinnerNumberModel;
import org.medjava.codec.dicom.Window;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.model.WindowLevel;

/**
 * The tool bar's window preset box and frame spinner: they follow the open document and change it through the
 * controller.
 */
final class WindowControls implements ViewerController.Listener {
    /** The preset whose window spans the current values (the frame's, or the filtered ones). */
    static final String FULL_RANGE = "Full range";

    private final ViewerController controller;
    private final JComboBox<Object> presets = new JComboBox<>();
    private final JSpinner frameSpinner = new JSpinner(new SpinnerNumberModel(1, 1, 1, 1));
    private final JLabel frameCount = new JLabel(" / 1");
    private boolean updating;

    WindowControls(ViewerController controller) {
        this.controller = controller;
        presets.setName("presets");
        presets.setMaximumSize(new Dimension(260, 30));
        presets.addActionListener(e -> {
            if (!updating && presets.getSelectedItem() instanceof WindowLevel.Preset p) {
                controller.setWindow(p.window());
            } else if (!updating && FULL_RANGE.equals(presets.getSelectedItem())) {
                controller.setFullRangeWindow();
            }
        });
        frameSpinner.setName("frame");
        frameSpinner.setMaximumSize(new Dimension(80, 30));
        frameSpinner.addChangeListener(e -> {
            if (!updating) {
                controller.changeFrame((Integer) frameSpinner.getValue() - 1);
            }
        });
        controller.addListener(this);
    }

    JComboBox<Object> presets() {
        return presets;
    }

    JSpinner frameSpinner() {
        return frameSpinner;
    }

    JLabel frameCount() {
        return frameCount;
    }

    /** A new image: its file's presets, the full range, then the CT presets. */
    @Override
    public void opened(ImageDocument doc) {
        updating = true;
        try {
            presets.removeAllItems();
            if (doc == null || !doc.image().isGreyDicom()) {
                presets.addItem("(colour: no window)");
                return;
            }
            var dicom = doc.image().dicom();
            int n = 1;
            for (Window w : dicom.windowPresets()) {
                presets.addItem(new WindowLevel.Preset("File " + n++, w));
            }
            presets.addItem(FULL_RANGE);
            WindowLevel.CT_PRESETS.forEach(presets::addItem);
            presets.setSelectedIndex(0);
        } finally {
            updating = false;
        }
    }

    @Override
    public void changed() {
        ImageDocument doc = controller.document();
        boolean open = doc != null;
        presets.setEnabled(open && doc.windowLive());
        updating = true;
        try {
            int frames = open && doc.image().isDicom() ? doc.image().dicom().frameCount() : 1;
            int frame = open && doc.image().isDicom() ? doc.image().dicom().frame() : 0;
            frameSpinner.setModel(new SpinnerNumberModel(frame + 1, 1, frames, 1));
            frameSpinner.setEnabled(frames > 1 && open && doc.state().isOriginal());
            frameCount.setText(" / " + frames);
        } finally {
            updating = false;
        }
    }
}
