package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.util.function.Function;
import javax.swing.BorderFactory;
import javax.swing.ButtonGroup;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JRadioButton;
import javax.swing.JTextField;
import org.medjava.viewer.image.UploadFormat;

/** Asks where to upload the current image and in which format. */
final class UploadDialog extends JDialog {
    private static final long serialVersionUID = 1L;

    private final JTextField directory = new JTextField(44); // a dicom/{PatientID}/{Study}/{Series}/ path is long
    private final JTextField name = new JTextField(44);
    private final JLabel problem = new JLabel(" ");
    private final transient Function<UploadFormat, UploadTarget.Place> suggest;
    private UploadFormat format;
    private transient UploadTarget.Place suggested;
    private transient UploadTarget result;

    /** @param suggest where an upload in a format goes unless the user says otherwise */
    UploadDialog(JFrame owner, String server, Function<UploadFormat, UploadTarget.Place> suggest,
                 UploadFormat initial) {
        super(owner, "Upload to the image store", true);
        setName("uploadDialog");
        directory.setName("uploadDirectory");
        name.setName("uploadName");
        problem.setName("uploadProblem");
        problem.setForeground(new Color(0xD0, 0x40, 0x40));
        this.suggest = suggest;
        format = initial;
        suggested = suggest.apply(initial);
        directory.setText(suggested.directory());
        name.setText(suggested.name());

        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createEmptyBorder(12, 12, 6, 12));
        GridBagConstraints c = new GridBagConstraints();
        c.anchor = GridBagConstraints.WEST;
        c.insets = new Insets(3, 0, 3, 10);
        c.gridx = 0;
        c.gridy = 0;
        form.add(new JLabel("Store"), c);
        c.gridx = 1;
        form.add(new JLabel(server + "/images/"), c);
        c.gridx = 0;
        c.gridy = 1;
        form.add(new JLabel("Directory"), c);
        c.gridx = 1;
        c.fill = GridBagConstraints.HORIZONTAL;
        c.weightx = 1;
        form.add(directory, c);
        c.gridx = 0;
        c.gridy = 2;
        c.fill = GridBagConstraints.NONE;
        c.weightx = 0;
        form.add(new JLabel("File name"), c);
        c.gridx = 1;
        c.fill = GridBagConstraints.HORIZONTAL;
        form.add(name, c);
        c.gridx = 0;
        c.gridy = 3;
        c.gridwidth = 2;
        ButtonGroup group = new ButtonGroup();
        for (UploadFormat f : UploadFormat.values()) {
            JRadioButton b = new JRadioButton(f.toString(), f == initial);
            b.setName("format-" + f.extension());
            b.addActionListener(e -> formatChosen(f));
            group.add(b);
            form.add(b, c);
            c.gridy++;
        }
        form.add(problem, c);

        JButton upload = new JButton("Upload");
        upload.setName("upload");
        JButton cancel = new JButton("Cancel");
        cancel.setName("uploadCancel");
        upload.addActionListener(e -> accept());
        cancel.addActionListener(e -> dispose());
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT));
        buttons.add(cancel);
        buttons.add(upload);
        getRootPane().setDefaultButton(upload);
        add(form, BorderLayout.CENTER);
        add(buttons, BorderLayout.SOUTH);
        pack();
        setLocationRelativeTo(owner);
    }

    /** A new format: what the user did not change follows the format's suggestion; a typed name keeps its base. */
    private void formatChosen(UploadFormat f) {
        UploadTarget.Place next = suggest.apply(f);
        if (directory.getText().equals(suggested.directory())) {
            directory.setText(next.directory());
        }
        name.setText(name.getText().equals(suggested.name()) ? next.name()
                : UploadTarget.withExtension(name.getText(), f));
        format = f;
        suggested = next;
    }

    private void accept() {
        try {
            result = new UploadTarget(UploadTarget.join(directory.getText(), name.getText()), format,
                    suggested.sopInstanceUid());
            dispose();
        } catch (IllegalArgumentException e) {
            problem.setText(e.getMessage());
        }
    }

    UploadTarget ask() {
        setVisible(true);
        return result;
    }
}
