package org.medjava.bench.setup;

/** An image size as the benchmarks write it: {@code "N"} for N×N, or {@code "WxH"}. */
public record ImageSize(int width, int height) {

    public ImageSize {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("image size must be at least 1x1, got " + width + "x" + height);
        }
    }

    public static ImageSize parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            int x = t.indexOf('x');
            if (x < 0) {
                int n = Integer.parseInt(t);
                return new ImageSize(n, n);
            }
            return new ImageSize(Integer.parseInt(t.substring(0, x)), Integer.parseInt(t.substring(x + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("image size must be N or WxH, got \"" + text + "\"", e);
        }
    }

    public long pixels() {
        return (long) width * height;
    }

    public boolean square() {
        return width == height;
    }

    /** {@code "N"} for a square, else {@code "WxH"}: the form {@link #parse} reads and JMH params carry. */
    @Override
    public String toString() {
        return square() ? Integer.toString(width) : width + "x" + height;
    }

    /** {@code "4096²"} or {@code "3000×2000"}, for tables and charts. */
    public String label() {
        return square() ? width + "²" : width + "×" + height;
    }
}
