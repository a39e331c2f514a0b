package org.medjava.viewer.ui;

import java.awt.Color;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.Image;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.function.Consumer;
import javax.swing.BorderFactory;
import javax.swing.ImageIcon;
import javax.swing.JButton;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.ScrollPaneConstants;
import javax.swing.SwingConstants;
import org.medjava.viewer.store.IndexRows;
import org.medjava.viewer.store.StoreClient;

/**
 * The study's series as a strip of thumbnails (the store renders each series' middle image): a click opens that
 * series as a stack; the open one is outlined. Thumbnails load off the event thread. Event thread.
 */
final class SeriesStrip extends JScrollPane {
    private static final long serialVersionUID = 1L;
    private static final int ICON = 64;

    private final JPanel row = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 2));
    private final transient Tasks tasks;
    private final transient Consumer<IndexRows.Series> open;
    private String study = "";
    private int request;

    SeriesStrip(Tasks tasks, Consumer<IndexRows.Series> open) {
        super(ScrollPaneConstants.VERTICAL_SCROLLBAR_NEVER, ScrollPaneConstants.HORIZONTAL_SCROLLBAR_AS_NEEDED);
        this.tasks = tasks;
        this.open = open;
        setName("seriesStrip");
        setViewportView(row);
        setBorder(BorderFactory.createEmptyBorder());
        setPreferredSize(new Dimension(400, ICON + 72));
        setVisible(false);
    }

    String study() {
        return study;
    }

    /** Shows {@code series} of {@code studyUid}, outlining {@code openSeries}. */
    void show(StoreClient client, String studyUid, List<IndexRows.Series> series, String openSeries) {
        int mine = ++request;
        study = studyUid;
        row.removeAll();
        for (IndexRows.Series s : series) {
            String name = s.seriesNumber() != null ? "Se " + s.seriesNumber()
                    : s.seriesDescription().isBlank() ? "Series" : shorten(s.seriesDescription());
            JButton b = new JButton("<html><center>" + escape(name) + " · " + escape(s.modality()) + "<br>"
                    + s.instances() + (s.instances() == 1 ? " image" : " images") + "</center></html>");
            b.setName("series:" + s.seriesInstanceUid());
            b.setToolTipText(s.seriesDescription().isBlank() ? s.seriesInstanceUid() : s.seriesDescription());
            b.setVerticalTextPosition(SwingConstants.BOTTOM);
            b.setHorizontalTextPosition(SwingConstants.CENTER);
            b.setFocusable(false);
            b.setPreferredSize(new Dimension(ICON + 64, ICON + 60));
            b.addActionListener(e -> open.accept(s));
            row.add(b);
            tasks.background(p -> icon(client.seriesThumbnail(studyUid, s.seriesInstanceUid())), icon -> {
                if (mine == request) {
                    b.setIcon(new ImageIcon(icon));
                }
            }, e -> {
                // no thumbnail (nothing the store can render): the label says enough
            });
        }
        mark(openSeries);
        setVisible(!series.isEmpty());
        revalidate();
        repaint();
    }

    /** Outlines the button of the open series. */
    void mark(String openSeries) {
        for (var c : row.getComponents()) {
            if (c instanceof JButton b) {
                boolean open = b.getName().equals("series:" + openSeries);
                b.setBorder(open ? BorderFactory.createLineBorder(new Color(255, 200, 0), 2)
                        : BorderFactory.createEmptyBorder(2, 2, 2, 2));
            }
        }
    }

    void clear() {
        request++;
        study = "";
        row.removeAll();
        setVisible(false);
    }

    /** The button of a series, for tests. */
    JButton button(String seriesUid) {
        for (var c : row.getComponents()) {
            if (c instanceof JButton b && b.getName().equals("series:" + seriesUid)) {
                return b;
            }
        }
        return null;
    }

    private static Image icon(byte[] png) throws java.io.IOException {
        BufferedImage image = org.medjava.codec.ImageCodec.decodeImage(png);
        double scale = Math.min(1, (double) ICON / Math.max(image.getWidth(), image.getHeight()));
        return image.getScaledInstance(Math.max(1, (int) (image.getWidth() * scale)),
                Math.max(1, (int) (image.getHeight() * scale)), Image.SCALE_SMOOTH);
    }

    private static String shorten(String s) {
        return s.length() <= 14 ? s : s.substring(0, 13) + "…";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;");
    }
}
