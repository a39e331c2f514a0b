package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.Image;
import java.awt.image.BufferedImage;
import javax.swing.BorderFactory;
import javax.swing.ImageIcon;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.SwingConstants;
import org.medjava.viewer.store.StoreClient;

/**
 * A preview of the file selected in the store tree, where it is cheap: files up to {@link #MAX_BYTES}, rendered by
 * the store itself ({@code ?render=png}) and scaled here, off the event thread. Larger files just say so.
 */
final class ThumbnailPanel extends JPanel {
    private static final long serialVersionUID = 1L;
    static final long MAX_BYTES = 2L << 20;
    private static final int SIZE = 180;

    private final JLabel picture = new JLabel("", SwingConstants.CENTER);
    private final transient Tasks tasks;
    private int request;

    ThumbnailPanel(Tasks tasks) {
        super(new BorderLayout());
        this.tasks = tasks;
        picture.setName("thumbnail");
        setBorder(BorderFactory.createEmptyBorder(4, 4, 4, 4));
        setPreferredSize(new Dimension(SIZE + 8, SIZE + 8));
        add(picture, BorderLayout.CENTER);
        clear("Select a file for a preview");
    }

    void clear(String text) {
        request++;
        picture.setIcon(null);
        picture.setText(text);
    }

    void show(StoreClient client, String path, long size) {
        if (size > MAX_BYTES) {
            clear("No preview over " + (MAX_BYTES >> 20) + " MiB: double-click to open");
            return;
        }
        int mine = ++request;
        picture.setIcon(null);
        picture.setText("…");
        tasks.background(p -> scaled(client.renderPng(path)), image -> {
            if (mine == request) {
                picture.setText("");
                picture.setIcon(new ImageIcon(image));
            }
        }, e -> {
            if (mine == request) {
                picture.setText("No preview (" + e.getMessage().replaceFirst("^cannot preview [^:]*: ", "") + ")");
            }
        });
    }

    private static Image scaled(byte[] png) throws java.io.IOException {
        BufferedImage image = org.medjava.codec.ImageCodec.decodeImage(png);
        double scale = Math.min(1, (double) SIZE / Math.max(image.getWidth(), image.getHeight()));
        int w = Math.max(1, (int) Math.round(image.getWidth() * scale));
        int h = Math.max(1, (int) Math.round(image.getHeight() * scale));
        return image.getScaledInstance(w, h, Image.SCALE_SMOOTH);
    }
}
