package org.medjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's Markdown resolves: the file or directory exists, and an {@code #anchor}
 * names a heading of the Markdown file it points into (GitHub's slug rule). The README and docs/ are where moved
 * content breaks links first; this keeps them honest in the normal test build.
 */
class DocsLinksTest {


    private static final Set<String> SKIPPED_DIRS = Set.of("target", "node_modules", ".git");
    private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```|~~~)");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1", Pattern.DOTALL);
    /** An inline link or image: {@code [text](target "title")}; the text may run over lines. */
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(\\s*<?([^()\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("(?m)^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        Path root = repositoryRoot();
        List<Path> files = markdownFiles(root);
        assertThat(files).as("Markdown files under " + root).isNotEmpty();
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path file : files) {
            String text = withoutCode(Files.readString(file, StandardCharsets.UTF_8));
            for (Matcher m : List.of(LINK.matcher(text), REFERENCE.matcher(text))) {
                while (m.find()) {
                    String problem = check(root, file, m.group(1), anchors);
                    if (problem != null) {
                        broken.add(root.relativize(file) + ":" + lineOf(text, m.start()) + ": " + m.group(1) + " ("
                                + problem + ")");
                    }
                }
            }
        }
        assertThat(broken).as("broken links in the repository's Markdown").isEmpty();
    }

    @Test
    void slugsFollowGitHubsRule() {
        assertThat(slugs(List.of("## Settings as environment variables — the rule", "### `./medjava cluster`",
                "## Same-host IPC and the transport's building blocks (issue 20)", "## Tests", "## Tests",
                "### ØMQ and JNI against FFM", "## [Link](x.md) and *stress* and snake_case")))
                .containsExactly("settings-as-environment-variables--the-rule", "medjava-cluster",
                        "same-host-ipc-and-the-transports-building-blocks-issue-20", "tests", "tests-1",
                        "ømq-and-jni-against-ffm", "link-and-stress-and-snake_case");
    }

    /** The problem with one link, or null when it resolves. */
    private static String check(Path root, Path file, String target, Map<Path, Set<String>> anchors) {
        if (target.matches("(?i)^[a-z][a-z0-9+.-]*:.*")) {
            return null; // http(s), mailto and other schemes are not checked
        }
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String fragment = hash < 0 ? "" : URLDecoder.decode(target.substring(hash + 1), StandardCharsets.UTF_8);
        Path resolved = path.isEmpty() ? file
                : (path.startsWith("/") ? root.resolve(path.substring(1)) : file.getParent().resolve(path)).normalize();
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (fragment.isEmpty() || !resolved.toString().endsWith(".md") || Files.isDirectory(resolved)) {
            return null;
        }
        Set<String> known = anchors.computeIfAbsent(resolved, DocsLinksTest::anchorsOf);
        return known.contains(fragment) ? null : "no heading with anchor #" + fragment;
    }

    private static Set<String> anchorsOf(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            Set<String> anchors = new HashSet<>();
            List<String> headings = new ArrayList<>();
            boolean fenced = false;
            for (String line : text.split("\n", -1)) {
                if (FENCE.matcher(line).find()) {
                    fenced = !fenced;
                } else if (!fenced) {
                    if (HEADING.matcher(line).matches()) {
                        headings.add(line);
                    }
                    Matcher html = HTML_ANCHOR.matcher(line);
                    while (html.find()) {
                        anchors.add(html.group(1));
                    }
                }
            }
            anchors.addAll(slugs(headings));
            return anchors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * GitHub's anchors for these heading lines, in order: the heading's text as rendered (links as their text, no
     * code or emphasis marks), lower case, every character but letters, digits, spaces, {@code -} and {@code _}
     * dropped, spaces turned into {@code -}; a repeated slug gets {@code -1}, {@code -2}, ...
     */
    static List<String> slugs(List<String> headingLines) {
        Map<String, Integer> seen = new HashMap<>();
        List<String> slugs = new ArrayList<>();
        for (String line : headingLines) {
            Matcher h = HEADING.matcher(line);
            String text = h.matches() ? h.group(2) : line;
            text = text.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "").replace("*", "")
                    .replaceAll("<[^>]+>", "");
            StringBuilder slug = new StringBuilder();
            text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
                if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                    slug.appendCodePoint(c);
                } else if (c == ' ') {
                    slug.append('-');
                }
            });
            String base = slug.toString();
            int n = seen.merge(base, 1, Integer::sum) - 1;
            slugs.add(n == 0 ? base : base + "-" + n);
        }
        return slugs;
    }

    /** The text with fenced blocks and code spans blanked, newlines kept, so that offsets still give line numbers. */
    private static String withoutCode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            boolean fence = FENCE.matcher(line).find();
            out.append(fenced || fence ? "" : line).append('\n');
            if (fence) {
                fenced = !fenced;
            }
        }
        Matcher m = CODE_SPAN.matcher(out);
        StringBuilder blanked = new StringBuilder(out.length());
        while (m.find()) {
            m.appendReplacement(blanked, Matcher.quoteReplacement(m.group().replaceAll("[^\n]", " ")));
        }
        m.appendTail(blanked);
        return blanked.toString();
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static List<Path> markdownFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(root) && SKIPPED_DIRS.contains(dir.getFileName().toString())
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                if (f.getFileName().toString().endsWith(".md")) {
                    files.add(f);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return files;
    }

    /** The checkout's root: the nearest directory up from here with both the {@code medjava} script and a pom. */
    static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("medjava")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no directory with medjava and pom.xml above " + Path.of("").toAbsolutePath());
    }
}
