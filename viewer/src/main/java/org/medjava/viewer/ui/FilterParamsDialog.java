package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.util.LinkedHashMap;
import java.util.Map;
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
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.ParamSpec;

/**
 * A filter's parameters, one field per {@link ParamSpec} filled with the last values used (the spec's defaults the
 * first time), each with its rule as a tooltip. OK validates through the descriptor and shows the rule that was
 * broken instead of closing.
 */
final class FilterParamsDialog extends JDialog {
    private static final long serialVersionUID = 1L;

    private final transient FilterDescriptor descriptor;
    private final Map<String, JComponent> fields = new LinkedHashMap<>();
    private final JLabel problem = new JLabel(" ");
    private transient Map<String, String> result;

    FilterParamsDialog(JFrame owner, FilterDescriptor descriptor, Map<String, String> last, String target) {
        super(owner, descriptor.displayName() + " — parameters", true);
        this.descriptor = descriptor;
        setName("filterParams");
        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createEmptyBorder(12, 12, 6, 12));
        int y = 0;
        for (ParamSpec p : descriptor.params()) {
            String value = last.getOrDefault(p.name(), p.defaultValue());
            JComponent field = field(p, value);
            field.setName("param-" + p.name());
            field.setToolTipText(p.rule() + " (default " + p.defaultValue() + ")"
                    + (p.description().isEmpty() ? "" : ": " + p.description()));
            fields.put(p.name(), field);
            GridBagConstraints c = new GridBagConstraints();
            c.gridx = 0;
            c.gridy = y;
            c.anchor = GridBagConstraints.WEST;
            c.insets = new Insets(3, 0, 3, 10);
            form.add(new JLabel(p.name() + (p.description().isEmpty() ? "" : " — " + p.description())), c);
            c.gridx = 1;
            c.fill = GridBagConstraints.HORIZONTAL;
            c.weightx = 1;
            form.add(field, c);
            y++;
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
        pack();
        setLocationRelativeTo(owner);
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
        Map<String, String> raw = new LinkedHashMap<>();
        fields.forEach((name, f) -> {
            if (f instanceof JSpinner s) {
                try {
                    s.commitEdit();
                } catch (java.text.ParseException e) {
                    // the spinner keeps its last valid value
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
