package org.medjava.viewer.ui;

import java.util.function.Consumer;
import javax.swing.JFrame;
import javax.swing.JOptionPane;
import org.medjava.codec.dicom.Uids;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.UploadEncoder;
import org.medjava.viewer.image.UploadFormat;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.store.StoreException;

/**
 * Uploading the current image: asks where and how, encodes and PUTs it off the event thread with progress, and
 * turns each refusal into a dialog that says what happened and offers what can be done (log in again, overwrite,
 * choose another name, retry). The open image and its history are never touched by a failed upload.
 */
final class UploadFlow {
    private final ViewerController controller;
    private final ConnectFlow connect;
    private final Consumer<String> reveal;
    private final JFrame owner;
    private final Tasks tasks;
    private final StatusBar status;

    /** @param reveal shows a store directory in the file tree (where the upload went) */
    UploadFlow(ViewerController controller, ConnectFlow connect, Consumer<String> reveal) {
        this.controller = controller;
        this.connect = connect;
        this.reveal = reveal;
        this.owner = controller.owner();
        this.tasks = controller.tasks();
        this.status = controller.status();
    }

    /** Uploads the open image, connecting first when not connected. Event thread. */
    void upload() {
        ImageDocument doc = controller.document();
        if (doc == null) {
            status.message("Open an image first");
            return;
        }
        if (controller.client() == null) {
            connect.askConnect(null, null);
            if (controller.client() == null) {
                return;
            }
        }
        start(controller.client(), UploadEncoder.Snapshot.of(doc), doc.origin());
    }

    /** The store now holds {@code path} with {@code etag}: the open image's origin follows, the tree shows it. */
    private void uploaded(String path, String etag) {
        ImageDocument doc = controller.document();
        if (doc != null && doc.origin() instanceof ImageOrigin.StoreFile f && f.path().equals(path)) {
            doc.setOrigin(new ImageOrigin.StoreFile(f.server(), path, etag));
        }
        int slash = path.lastIndexOf('/');
        reveal.accept(slash < 0 ? "" : path.substring(0, slash + 1));
    }

    /** Event thread. */
    private void start(StoreClient client, UploadEncoder.Snapshot snapshot, ImageOrigin origin) {
        UploadFormat initial = snapshot.source().isDicom() ? UploadFormat.DICOM : UploadFormat.PNG;
        String sopInstanceUid = Uids.newUid(); // named before encoding: the store's DICOM layout has it in the path
        UploadTarget target = new UploadDialog(owner, client.base().toString(),
                format -> UploadTarget.suggest(origin, snapshot, format, sopInstanceUid), initial).ask();
        if (target == null) {
            return;
        }
        boolean overSource = origin instanceof ImageOrigin.StoreFile f && f.path().equals(target.path())
                && f.server().equals(client.base().toString());
        StoreClient.Precondition precondition = overSource
                ? new StoreClient.Precondition.IfMatch(((ImageOrigin.StoreFile) origin).etag())
                : new StoreClient.Precondition.IfAbsent();
        send(client, snapshot, target, precondition);
    }

    private void send(StoreClient client, UploadEncoder.Snapshot snapshot, UploadTarget target,
                      StoreClient.Precondition precondition) {
        tasks.foreground("Uploading " + target.path(), progress -> {
            UploadEncoder.Encoded body = UploadEncoder.encode(snapshot, target.format(), target.sopInstanceUid());
            String etag = client.put(target.path(), body.bytes(), target.format().mediaType(), precondition,
                    progress);
            return new Stored(etag, body.bytes().length, body.reducedColours());
        }, stored -> {
            status.message("Uploaded " + target.path() + " (" + stored.size() / 1024 + " KiB) to " + client.base()
                    + (stored.reducedColours() ? "; GIF reduced it to 256 colours (PNG keeps every pixel)" : ""));
            uploaded(target.path(), stored.etag());
        }, e -> failed(client, snapshot, target, precondition, e));
    }

    private record Stored(String etag, int size, boolean reducedColours) {
    }

    private void failed(StoreClient client, UploadEncoder.Snapshot snapshot, UploadTarget target,
                        StoreClient.Precondition precondition, Exception e) {
        String title = "Upload of " + target.path() + " failed";
        status.message(title + ": " + e.getMessage());
        if (!(e instanceof StoreException s)) {
            Dialogs.error(owner, title, "The image could not be encoded: " + e.getMessage());
            return;
        }
        String server = s.serverMessage().isBlank() ? "" : "\n\nThe store said: " + s.serverMessage();
        switch (s.status()) {
            case 0 -> {
                if (Dialogs.choose(owner, title, e.getMessage() + "\n\nThe image and its undo history are kept.",
                        JOptionPane.ERROR_MESSAGE, "Retry", "Cancel") == 0) {
                    send(client, snapshot, target, precondition);
                }
            }
            case 401 -> {
                if (Dialogs.choose(owner, "Login needed (401)", "The store did not accept your login for this upload"
                        + " (the password may have changed or the session expired)." + server,
                        JOptionPane.WARNING_MESSAGE, "Log in again", "Cancel") == 0) {
                    StoreClient fresh = connect.relogin();
                    if (fresh != null) {
                        send(fresh, snapshot, target, precondition);
                    }
                }
            }
            case 403 -> Dialogs.error(owner, "Not allowed (403)", "Your account (" + client.user() + ") may read"
                    + " images but not upload them. Ask an administrator for the uploader role, or log in as"
                    + " another user." + server);
            case 412 -> preconditionFailed(client, snapshot, target, precondition, server);
            case 413 -> Dialogs.error(owner, "Too large for the store (413)", "The store's upload limit is"
                    + " smaller than this file. Upload a region or a smaller format (PNG or GIF instead of DICOM),"
                    + " or ask an administrator to raise medjava.upload.max-bytes." + server);
            case 415 -> Dialogs.error(owner, "Type not accepted (415)", "The store accepts DICOM, GIF, PNG and JPEG"
                    + " whose content, file extension and media type agree. Check the file name's extension."
                    + server);
            case 422 -> Dialogs.error(owner, "Not decodable (422)", "The store could not decode the uploaded"
                    + " image." + server);
            default -> {
                if (Dialogs.choose(owner, title, e.getMessage() + "\n\nThe image and its undo history are kept.",
                        JOptionPane.ERROR_MESSAGE, "Retry", "Cancel") == 0) {
                    send(client, snapshot, target, precondition);
                }
            }
        }
    }

    private void preconditionFailed(StoreClient client, UploadEncoder.Snapshot snapshot, UploadTarget target,
                                    StoreClient.Precondition precondition, String server) {
        String message = precondition instanceof StoreClient.Precondition.IfMatch
                ? target.path() + " was changed on the store since you downloaded it (someone else uploaded a new"
                + " version). Overwriting replaces their version with yours."
                : "A file named " + target.path() + " already exists on the store.";
        int choice = Dialogs.choose(owner, "Changed on the server (412)", message + server,
                JOptionPane.WARNING_MESSAGE, "Overwrite", "Cancel");
        if (choice == 0) {
            send(client, snapshot, target, new StoreClient.Precondition.None());
        }
    }
}
