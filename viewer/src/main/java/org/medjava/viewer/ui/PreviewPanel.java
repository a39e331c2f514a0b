package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.GridLayout;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import javax.swing.BorderFactory;
import javax.swing.JCheckBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.SwingConstants;

/**
 * The parameter dialog's preview: the crop before and after the filter, side by side at the same scale, with a line
 * saying what is previewed and whether it is up to date, and a switch to turn the live preview off. Event thread.
 */
final class PreviewPanel extends JPanel {
    private static final long serialVersionUID = 1L;
    /** Each image's box: crops up to {@code FilterPreview.MAX_SIDE} show 1:1, smaller ones are enlarged. */
    static final int BOX = 256;

    private final Picture before = new Picture("previewBefore");
    private final Picture after = new Picture("previewAfter");
    private final JLabel state = new JLabel();
    private final JCheckBox live = new JCheckBox("Live preview", true);

    PreviewPanel() {
        super(new BorderLayout(0, 4));
        setName("previewPanel");
        setBorder(BorderFactory.createEmptyBorder(12, 6, 6, 12));
        JPanel pictures = new JPanel(new GridLayout(1, 2, 6, 0));
        pictures.add(captioned("Before", before));
        pictures.add(captioned("After", after));
        state.setName("previewStatus");
        // a fixed size, so a longer message does not squeeze the form beside it
        state.setPreferredSize(new Dimension(2 * BOX + 6, 3 * state.getFontMetrics(state.getFont()).getHeight()));
        state.setVerticalAlignment(SwingConstants.TOP);
        live.setName("livePreview");
        live.setToolTipText("Filter a part of the image as the values change (off: only Apply filters)");
        add(live, BorderLayout.NORTH);
        add(pictures, BorderLayout.CENTER);
        add(state, BorderLayout.SOUTH);
        status("Preparing the preview…");
    }

    private static JPanel captioned(String caption, Picture picture) {
        JPanel p = new JPanel(new BorderLayout(0, 2));
        p.add(new JLabel(caption, SwingConstants.CENTER), BorderLayout.NORTH);
        p.add(picture, BorderLayout.CENTER);
        return p;
    }

    JCheckBox liveSwitch() {
        return live;
    }

    void showBefore(BufferedImage image) {
        before.set(image);
    }

    void showAfter(BufferedImage image) {
        after.set(image);
    }

    BufferedImage after() {
        return after.image;
    }

    BufferedImage before() {
        return before.image;
    }

    /** Plain text; wrapped to the panel's width. */
    void status(String text) {
        state.setText("<html><body style='width: " + (2 * BOX * 3 / 4) + "px'>" + text.replace("&", "&amp;")
                .replace("<", "&lt;").replace(">", "&gt;") + "</body></html>");
    }

    String status() {
        return state.getText();
    }

    /** One image, scaled to fit its box (nearest neighbour when enlarged, so pixels stay visible). */
    private static final class Picture extends JComponent {
        private static final long serialVersionUID = 1L;
        private transient BufferedImage image;

        Picture(String name) {
            setName(name);
            setPreferredSize(new Dimension(BOX, BOX));
            setOpaque(true);
            setBackground(Color.BLACK);
        }

        void set(BufferedImage next) {
            image = next;
            repaint();
        }

        @Override
        protected void paintComponent(Graphics g0) {
            Graphics2D g = (Graphics2D) g0.create();
            try {
                g.setColor(getBackground());
                g.fillRect(0, 0, getWidth(), getHeight());
                if (image == null) {
                    return;
                }
                double scale = Math.min((double) getWidth() / image.getWidth(),
                        (double) getHeight() / image.getHeight());
                g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, scale >= 1
                        ? RenderingHints.VALUE_INTERPOLATION_NEAREST_NEIGHBOR
                        : RenderingHints.VALUE_INTERPOLATION_BILINEAR);
                int w = (int) Math.round(image.getWidth() * scale);
                int h = (int) Math.round(image.getHeight() * scale);
                g.drawImage(image, (getWidth() - w) / 2, (getHeight() - h) / 2, w, h, null);
            } finally {
                g.dispose();
            }
        }
    }
}
