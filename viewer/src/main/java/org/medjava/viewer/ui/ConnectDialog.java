package org.medjava.viewer.ui;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JPasswordField;
import javax.swing.JTextField;
import org.medjava.viewer.model.RecentServers;
import org.medjava.viewer.store.Credentials;
import org.medjava.viewer.store.SignInFailed;
import org.medjava.viewer.store.SingleSignOn;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.store.StoreException;
import org.medjava.viewer.store.SystemBrowser;
import org.medjava.viewer.store.TokenSession;

/**
 * Asks for the store's URL (recent servers offered) and a login, checks them against the store off the event
 * thread, and hands a working client back. When the store offers single sign-on, "Sign in with …" signs in through
 * the system browser instead ({@link SingleSignOn}). Failures are shown in the dialog; the dialog stays open to retry.
 */
final class ConnectDialog extends JDialog {
    private static final long serialVersionUID = 1L;

    private final JComboBox<Object> server = new JComboBox<>();
    private final JTextField user = new JTextField(16);
    private final JPasswordField password = new JPasswordField(16);
    private final JLabel problem = new JLabel(" ");
    private final JButton connect = new JButton("Connect");
    private final JButton singleSignOn = new JButton("Sign in with single sign-on");
    private final transient Tasks tasks;
    private final transient SystemBrowser browser;
    private transient StoreClient result;
    /** The store's single sign-on for the URL in the field, or null. Event thread. */
    private transient SingleSignOn.Offer offer;
    private transient volatile SingleSignOn signingIn;

    ConnectDialog(JFrame owner, Tasks tasks, SystemBrowser browser, List<RecentServers.Server> recent, String url,
                  String userName) {
        super(owner, "Connect to an image store", true);
        this.tasks = tasks;
        this.browser = browser;
        singleSignOn.setName("singleSignOn");
        singleSignOn.setVisible(false);
        setName("connectDialog");
        server.setName("server");
        user.setName("user");
        password.setName("password");
        problem.setName("connectProblem");
        connect.setName("connect");
        server.setEditable(true);
        recent.forEach(server::addItem);
        if (url != null) {
            server.setSelectedItem(url);
        } else if (!recent.isEmpty()) {
            server.setSelectedIndex(0);
        } else {
            server.setSelectedItem("http://localhost:8080");
        }
        user.setText(defaultUser(recent, String.valueOf(server.getSelectedItem()), userName,
                System.getProperty("user.name")));
        server.addActionListener(e -> {
            if (server.getSelectedItem() instanceof RecentServers.Server s && !s.user().isEmpty()) {
                user.setText(s.user());
            }
            lookForSingleSignOn();
        });
        problem.setForeground(new Color(0xD0, 0x40, 0x40));

        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createEmptyBorder(12, 12, 4, 12));
        row(form, 0, "Store URL", server);
        row(form, 1, "User", user);
        row(form, 2, "Password", password);
        GridBagConstraints c = new GridBagConstraints();
        c.gridx = 0;
        c.gridy = 3;
        c.gridwidth = 2;
        c.anchor = GridBagConstraints.WEST;
        c.insets = new Insets(8, 0, 0, 0);
        form.add(problem, c);
        JLabel note = new JLabel("The password is kept in memory for this session only.");
        note.setForeground(Color.GRAY);
        c.gridy = 4;
        form.add(note, c);

        JButton cancel = new JButton("Cancel");
        cancel.setName("connectCancel");
        cancel.addActionListener(e -> giveUp());
        connect.addActionListener(e -> tryConnect());
        singleSignOn.addActionListener(e -> trySingleSignOn());
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT));
        buttons.add(singleSignOn);
        buttons.add(cancel);
        buttons.add(connect);
        getRootPane().setDefaultButton(connect);
        add(form, BorderLayout.CENTER);
        add(buttons, BorderLayout.SOUTH);
        pack();
        setLocationRelativeTo(owner);
        addWindowListener(new java.awt.event.WindowAdapter() {
            @Override
            public void windowOpened(java.awt.event.WindowEvent e) {
                (user.getText().isBlank() ? user : password).requestFocusInWindow();
            }

            @Override
            public void windowClosing(java.awt.event.WindowEvent e) {
                giveUp();
            }
        });
        lookForSingleSignOn();
    }

    /** Asks the store in the URL field whether it offers single sign-on; shows "Sign in with …" when it does. */
    private void lookForSingleSignOn() {
        URI uri;
        try {
            uri = StoreClient.parseServer(String.valueOf(server.getSelectedItem()));
        } catch (IllegalArgumentException e) {
            showOffer(null);
            return;
        }
        tasks.background(p -> SingleSignOn.offer(uri), found -> {
            if (uri.equals(currentServer())) { // the field may have changed meanwhile
                showOffer(found);
            }
        }, e -> showOffer(null)); // an unreachable store: "Connect" says so
    }

    private URI currentServer() {
        try {
            return StoreClient.parseServer(String.valueOf(server.getSelectedItem()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private void showOffer(SingleSignOn.Offer found) {
        offer = found;
        singleSignOn.setVisible(found != null);
        if (found != null) {
            singleSignOn.setText("Sign in with " + found.name());
        }
        pack();
    }

    private void giveUp() {
        SingleSignOn running = signingIn;
        if (running != null) {
            running.cancel();
        }
        dispose();
    }

    /**
     * The login name offered: the one given (--user, or the current login when logging in again), else the one last
     * used with this server, else the operating system's user name — never an empty field a user must fill first.
     */
    static String defaultUser(List<RecentServers.Server> recent, String url, String given, String osUser) {
        if (given != null && !given.isBlank()) {
            return given;
        }
        String wanted = comparable(url);
        for (RecentServers.Server s : recent) {
            if (!s.user().isBlank() && comparable(s.url()).equals(wanted)) {
                return s.user();
            }
        }
        return osUser == null ? "" : osUser;
    }

    /** A server URL as the store client would use it, or the text as typed when it is not one. */
    private static String comparable(String url) {
        try {
            return StoreClient.parseServer(url).toString().replaceAll("/+$", "");
        } catch (IllegalArgumentException e) {
            return String.valueOf(url).trim();
        }
    }

    private static void row(JPanel form, int y, String label, JComponent field) {
        GridBagConstraints c = new GridBagConstraints();
        c.gridx = 0;
        c.gridy = y;
        c.anchor = GridBagConstraints.WEST;
        c.insets = new Insets(3, 0, 3, 10);
        form.add(new JLabel(label), c);
        c.gridx = 1;
        c.fill = GridBagConstraints.HORIZONTAL;
        c.weightx = 1;
        form.add(field, c);
    }

    /** Shows the dialog; the connected client, or null when the user cancelled. */
    StoreClient ask() {
        setVisible(true);
        return result;
    }

    /** Signs in through the system browser; the dialog waits (at most {@link SingleSignOn#PATIENCE}). */
    private void trySingleSignOn() {
        URI uri = currentServer();
        if (uri == null || offer == null) {
            return;
        }
        SingleSignOn sso = new SingleSignOn(offer, browser, SingleSignOn.PATIENCE);
        signingIn = sso;
        connect.setEnabled(false);
        singleSignOn.setEnabled(false);
        problem.setText("Sign in in your browser, then return here…");
        tasks.background(p -> {
            TokenSession session = sso.signIn();
            StoreClient client = new StoreClient(uri, session);
            try {
                client.list("");
            } catch (IOException | RuntimeException e) {
                session.forget();
                throw e;
            }
            return client;
        }, client -> {
            signingIn = null;
            result = client;
            dispose();
        }, e -> {
            signingIn = null;
            connect.setEnabled(true);
            singleSignOn.setEnabled(true);
            problem.setText(e instanceof SignInFailed ? e.getMessage()
                    : e instanceof StoreException s && s.status() == 403
                    ? "Signed in, but your account has no role on this store: ask an administrator."
                    : e.getMessage());
        });
    }

    private void tryConnect() {
        URI uri;
        try {
            uri = StoreClient.parseServer(String.valueOf(server.getEditor().getItem()));
        } catch (IllegalArgumentException e) {
            problem.setText(e.getMessage());
            return;
        }
        if (user.getText().isBlank()) {
            problem.setText("Enter your user name.");
            return;
        }
        Credentials credentials = new Credentials(user.getText().trim(), password.getPassword());
        StoreClient client = new StoreClient(uri, credentials);
        connect.setEnabled(false);
        problem.setText("Connecting…");
        tasks.background(p -> client.list(""), listing -> {
            result = client;
            dispose();
        }, e -> {
            connect.setEnabled(true);
            problem.setText(e instanceof StoreException s && s.status() == 401
                    ? "The store did not accept this user name and password." : e.getMessage());
        });
    }
}
