package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JSpinner;
import javax.swing.JTextField;
import javax.swing.SpinnerNumberModel;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.ParamSpec;
import org.medjava.viewer.image.FilterPreview;

/**
 * A filter's parameters, one field per {@link ParamSpec} filled with the last values used (the spec's defaults the
 * first time). Each is labelled and explained in plain language when the plugin says it (filter API 1.3), else by
 * its name and the spec's description; the spec's rule is the tooltip and, with "Show the spec's rules", a line
 * under each field. With a preview source, a live preview filters part of the image as values change (debounced,
 * off the event thread, cancelled by newer values). Apply validates through the descriptor and shows the rule that
 * was broken instead of closing.
 */
final class FilterParamsDialog extends JDialog {
    private static final long serialVersionUID = 1L;

    private final transient FilterDescriptor descriptor;
    /** Width of the wrapped help texts, in pixels. */
    private static final int TEXT_WIDTH = 330;

    private final Map<String, JComponent> fields = new LinkedHashMap<>();
    private final Map<String, JLabel> details = new LinkedHashMap<>();
    private final JLabel problem = new JLabel(" ");
    private final JCheckBox showDetails = new JCheckBox("Show the spec's rules");
    private final PreviewPanel previewPanel;
    private final transient PreviewRunner preview;
    private transient volatile FilterPreview prepared;
    private transient Map<String, String> result;

    FilterParamsDialog(JFrame owner, FilterDescriptor descriptor, Map<String, String> last, String target) {
        this(owner, descriptor, last, target, null, null);
    }

    /**
     * @param previewSource takes the preview's crop (called once, off the event thread); null for no preview
     * @param implementation the implementation the preview runs (the one Apply will use)
     */
    FilterParamsDialog(JFrame owner, FilterDescriptor descriptor, Map<String, String> last, String target,
                       Callable<FilterPreview> previewSource, Implementation implementation) {
        super(owner, descriptor.displayName() + " — parameters", true);
        this.descriptor = descriptor;
        setName("filterParams");
        setDefaultCloseOperation(DISPOSE_ON_CLOSE);
        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createEmptyBorder(12, 12, 6, 12));
        int y = 0;
        String summary = descriptor.help().isEmpty() ? descriptor.description() : descriptor.help();
        if (!summary.isEmpty()) {
            JLabel about = wrapped(summary, "filterHelp");
            about.setToolTipText(wrapTip(descriptor.description()
                    + (descriptor.specSection().isEmpty() ? "" : " (spec section " + descriptor.specSection() + ")")));
            GridBagConstraints c = new GridBagConstraints();
            c.gridx = 0;
            c.gridy = y++;
            c.gridwidth = 2;
            c.anchor = GridBagConstraints.WEST;
            c.insets = new Insets(0, 0, 8, 0);
            form.add(about, c);
        }
        for (ParamSpec p : descriptor.params()) {
            String value = last.getOrDefault(p.name(), p.defaultValue());
            JComponent field = field(p, value);
            field.setName("param-" + p.name());
            String rule = specRule(p);
            field.setToolTipText(wrapTip(rule));
            fields.put(p.name(), field);
            GridBagConstraints c = new GridBagConstraints();
            c.gridx = 0;
            c.gridy = y;
            c.anchor = GridBagConstraints.WEST;
            c.insets = new Insets(6, 0, 0, 10);
            JLabel label = new JLabel(p.label());
            label.setName("label-" + p.name());
            label.setToolTipText(wrapTip(rule));
            label.setLabelFor(field);
            form.add(label, c);
            c.gridx = 1;
            c.fill = GridBagConstraints.HORIZONTAL;
            c.weightx = 1;
            form.add(field, c);
            y++;
            // plain words when the plugin gives them; the spec's description otherwise (plugins before API 1.3)
            JLabel help = wrapped(p.hasHelp() ? p.help() : p.name() + ": " + p.description() + " — " + p.rule()
                    + " (default " + p.defaultValue() + ")", "help-" + p.name());
            help.setToolTipText(wrapTip(rule));
            JLabel detail = wrapped("Spec: " + rule, "details-" + p.name());
            detail.setForeground(Color.GRAY);
            detail.setVisible(false);
            details.put(p.name(), detail);
            c = new GridBagConstraints();
            c.gridx = 0;
            c.gridy = y++;
            c.gridwidth = 2;
            c.anchor = GridBagConstraints.WEST;
            c.insets = new Insets(2, 12, 0, 0);
            form.add(help, c);
            c.gridy = y++;
            form.add(detail, c);
        }
        if (!descriptor.params().isEmpty()) {
            showDetails.setName("showDetails");
            showDetails.setToolTipText("The exact rule of each value, in the terms of the filter specification");
            showDetails.addActionListener(e -> {
                details.values().forEach(d -> d.setVisible(showDetails.isSelected()));
                pack();
            });
            GridBagConstraints c = new GridBagConstraints();
            c.gridx = 0;
            c.gridy = y++;
            c.gridwidth = 2;
            c.anchor = GridBagConstraints.WEST;
            c.insets = new Insets(8, 0, 0, 0);
            form.add(showDetails, c);
        }
        GridBagConstraints c = new GridBagConstraints();
        c.gridx = 0;
        c.gridy = y++;
        c.gridwidth = 2;
        c.anchor = GridBagConstraints.WEST;
        c.insets = new Insets(6, 0, 0, 0);
        form.add(new JLabel(descriptor.params().isEmpty() ? "No parameters. Applies to " + target + "."
                : "Applies to " + target + "."), c);
        c.gridy = y;
        problem.setName("paramProblem");
        problem.setForeground(new Color(0xD0, 0x40, 0x40));
        form.add(problem, c);

        JButton ok = new JButton("Apply");
        ok.setName("applyFilter");
        JButton cancel = new JButton("Cancel");
        cancel.setName("cancelFilter");
        JButton defaults = new JButton("Defaults");
        defaults.addActionListener(e -> resetDefaults());
        ok.addActionListener(e -> accept());
        cancel.addActionListener(e -> dispose());
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT));
        buttons.add(defaults);
        buttons.add(cancel);
        buttons.add(ok);
        getRootPane().setDefaultButton(ok);
        add(form, BorderLayout.CENTER);
        add(buttons, BorderLayout.SOUTH);
        if (previewSource != null && !descriptor.params().isEmpty()) {
            previewPanel = new PreviewPanel();
            preview = new PreviewRunner((raw, control) -> {
                FilterPreview p = prepared;
                if (p == null) { // the first run takes the crop, on the worker thread
                    p = previewSource.call();
                    prepared = p;
                }
                return p.run(raw, implementation, control);
            }, new PreviewListener(), 250);
            previewPanel.liveSwitch().addActionListener(e -> previewChanged());
            add(previewPanel, BorderLayout.EAST);
            listenForChanges();
            preview.request(values());
        } else {
            previewPanel = null;
            preview = null;
        }
        pack();
        setLocationRelativeTo(owner);
    }

    /** The spec's rule, default and description of a parameter: the tooltip and the details line. */
    private static String specRule(ParamSpec p) {
        return p.name() + " must be " + p.rule() + " (default " + p.defaultValue() + ")"
                + (p.description().isEmpty() ? "" : ": " + p.description());
    }

    private static JLabel wrapped(String text, String name) {
        JLabel l = new JLabel("<html><body style='width: " + TEXT_WIDTH + "px'>" + html(text) + "</body></html>");
        l.setName(name);
        return l;
    }

    private static String wrapTip(String text) {
        return "<html><body style='width: 360px'>" + html(text) + "</body></html>";
    }

    private static String html(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Every field change asks for a preview (debounced by the runner). */
    private void listenForChanges() {
        for (JComponent f : fields.values()) {
            if (f instanceof JSpinner s) {
                s.addChangeListener(e -> previewChanged());
            } else if (f instanceof JComboBox<?> b) {
                b.addActionListener(e -> previewChanged());
            } else if (f instanceof JCheckBox b) {
                b.addActionListener(e -> previewChanged());
            } else if (f instanceof JTextField t) {
                t.getDocument().addDocumentListener(new DocumentListener() {
                    @Override
                    public void insertUpdate(DocumentEvent e) {
                        previewChanged();
                    }

                    @Override
                    public void removeUpdate(DocumentEvent e) {
                        previewChanged();
                    }

                    @Override
                    public void changedUpdate(DocumentEvent e) {
                        previewChanged();
                    }
                });
            }
        }
    }

    private void previewChanged() {
        if (preview == null || !previewPanel.liveSwitch().isSelected()) {
            return;
        }
        Map<String, String> raw = currentValues();
        try {
            descriptor.params(raw);
        } catch (InvalidParameterException e) {
            previewPanel.status("No preview: " + e.getMessage());
            return;
        }
        preview.request(raw);
    }

    /** What the preview shows: events from the runner, on the event thread. */
    private final class PreviewListener implements PreviewRunner.Listener {
        @Override
        public void started() {
            previewPanel.status(prepared == null ? "Preparing the preview…" : "Updating the preview…");
        }

        @Override
        public void shown(java.awt.image.BufferedImage after, long millis) {
            FilterPreview p = prepared;
            if (previewPanel.before() == null && p != null) {
                previewPanel.showBefore(p.before());
            }
            previewPanel.showAfter(after);
            previewPanel.status(String.format(Locale.ROOT, "%s (%d ms)%s", p == null ? "Preview" : p.describe(),
                    millis, p != null && p.storedValues() ? "; on the stored values" : ""));
        }

        @Override
        public void failed(String reason) {
            previewPanel.status("No preview: " + (reason == null ? "it failed" : reason));
        }
    }

    @Override
    public void dispose() {
        if (preview != null) {
            preview.close();
        }
        super.dispose();
    }

    // ------------------------------------------------------------------ for tests

    /** The preview panel, or null without a preview source. */
    PreviewPanel previewPanel() {
        return previewPanel;
    }

    /** How many previews have started. */
    int previewRuns() {
        return preview == null ? 0 : preview.runs();
    }

    private static JComponent field(ParamSpec p, String value) {
        switch (p.type()) {
            case INT: {
                int v = Integer.parseInt(value);
                return new JSpinner(new SpinnerNumberModel(v, p.min(), p.max(), p.oddOnly() ? 2 : 1));
            }
            case CHOICE: {
                JComboBox<String> box = new JComboBox<>(p.choices().toArray(new String[0]));
                box.setSelectedItem(value);
                return box;
            }
            case BOOLEAN: {
                JCheckBox box = new JCheckBox();
                box.setSelected(Boolean.parseBoolean(value));
                return box;
            }
            default:
                return new JTextField(value, 8);
        }
    }

    private void resetDefaults() {
        for (ParamSpec p : descriptor.params()) {
            JComponent f = fields.get(p.name());
            String v = p.defaultValue();
            if (f instanceof JSpinner s) {
                s.setValue(Integer.parseInt(v));
            } else if (f instanceof JComboBox<?> b) {
                b.setSelectedItem(v);
            } else if (f instanceof JCheckBox b) {
                b.setSelected(Boolean.parseBoolean(v));
            } else if (f instanceof JTextField t) {
                t.setText(v);
            }
        }
    }

    private Map<String, String> values() {
        return values(true);
    }

    /** The values shown; a spinner's text being typed counts once committed (from a change listener: not yet). */
    private Map<String, String> currentValues() {
        return values(false);
    }

    private Map<String, String> values(boolean commit) {
        Map<String, String> raw = new LinkedHashMap<>();
        fields.forEach((name, f) -> {
            if (f instanceof JSpinner s) {
                if (commit) {
                    try {
                        s.commitEdit();
                    } catch (java.text.ParseException e) {
                        // the spinner keeps its last valid value
                    }
                }
                raw.put(name, String.valueOf(s.getValue()));
            } else if (f instanceof JComboBox<?> b) {
                raw.put(name, String.valueOf(b.getSelectedItem()));
            } else if (f instanceof JCheckBox b) {
                raw.put(name, Boolean.toString(b.isSelected()));
            } else {
                raw.put(name, ((JTextField) f).getText());
            }
        });
        return raw;
    }

    private void accept() {
        Map<String, String> raw = values();
        try {
            descriptor.params(raw);
        } catch (InvalidParameterException e) {
            problem.setText(e.getMessage());
            pack();
            return;
        }
        result = raw;
        dispose();
    }

    /** Shows the dialog; the accepted raw values, or null when cancelled. */
    Map<String, String> ask() {
        if (descriptor.params().isEmpty()) {
            return Map.of(); // nothing to ask
        }
        setVisible(true);
        return result;
    }
}
