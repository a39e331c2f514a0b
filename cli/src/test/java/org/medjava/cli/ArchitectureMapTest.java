package org.medjava.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The module and package map of docs/architecture.md is what the build and the sources say, so it cannot drift:
 * the modules and their dependencies on each other from the poms, and each module's packages with the packages of
 * the same module they use (from the sources' imports and qualified names), bottom first. A package in a cycle is
 * marked as such (the ArchUnit rules of each module's ModuleBoundariesTest forbid them where they are gone).
 *
 * <p>The maps sit between {@code <!-- generated:NAME -->} and {@code <!-- end:NAME -->}; when the code changes,
 * regenerate them: {@code mvn -B -ntp -o -q -pl cli test -Dtest=ArchitectureMapTest
 * -Dmedjava.regenerate-docs=true}.
 */
class ArchitectureMapTest {

    private static final Pattern BLOCK = Pattern.compile(
            "(<!-- generated:([a-z-]+) -->\\n)(.*?)(<!-- end:\\2 -->)", Pattern.DOTALL);
    private static final String GROUP = "org.medjava";
    /** A use of a class of the project: the package is everything before the first capitalised name. */
    private static final Pattern REFERENCE = Pattern.compile("\\borg\\.medjava((?:\\.[a-z][a-z0-9_]*)+)\\.[A-Z*]");
    private static final Pattern COMMENT_OR_TEXT = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])'", Pattern.DOTALL);

    /** A module of the build: its directory, artifact id, and the project modules it uses by scope. */
    record Module(String dir, String artifactId, List<String> compile, List<String> test) {
    }

    @Test
    void theModuleAndPackageMapsSayWhatTheBuildAndTheSourcesDo() throws IOException {
        Path root = DocsLinksTest.repositoryRoot();
        Path doc = root.resolve("docs/architecture.md");
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        List<Module> modules = modules(root);
        Map<String, String> maps = Map.of("module-map", moduleMap(root, modules), "package-map",
                packageMap(root, modules));
        Matcher m = BLOCK.matcher(text);
        StringBuilder regenerated = new StringBuilder();
        List<String> found = new ArrayList<>();
        List<String> differing = new ArrayList<>();
        while (m.find()) {
            String map = maps.get(m.group(2));
            assertThat(map).as("docs/architecture.md has a generated block \"" + m.group(2) + "\" this test does"
                    + " not make").isNotNull();
            found.add(m.group(2));
            if (!map.equals(m.group(3))) {
                differing.add(m.group(2));
            }
            m.appendReplacement(regenerated, Matcher.quoteReplacement(m.group(1) + map + m.group(4)));
        }
        m.appendTail(regenerated);
        assertThat(found).as("generated blocks of docs/architecture.md").containsExactlyInAnyOrderElementsOf(
                maps.keySet());
        if (Boolean.getBoolean("medjava.regenerate-docs")) {
            Files.writeString(doc, regenerated.toString(), StandardCharsets.UTF_8);
            return;
        }
        assertThat(differing).as("maps of docs/architecture.md that no longer match the poms and sources; regenerate"
                + " them with -Dmedjava.regenerate-docs=true (see ArchitectureMapTest)").isEmpty();
    }

    /** The build's modules in the root pom's order (an aggregator's modules in its place), each with its uses. */
    static List<Module> modules(Path root) {
        List<Module> modules = new ArrayList<>();
        // the scope a dependency has when its pom leaves it to the root's dependencyManagement
        Map<String, String> managed = new HashMap<>();
        Element management = child(child(pom(root.resolve("pom.xml")), "dependencyManagement"), "dependencies");
        if (management != null) {
            for (Element d : elements(management, "dependency")) {
                if (text(d, "scope") != null) {
                    managed.put(key(d), text(d, "scope"));
                }
            }
        }
        collect(root, root, managed, List.of(), modules);
        Set<String> ours = modules.stream().map(Module::artifactId).collect(Collectors.toSet());
        java.util.function.Predicate<String> project = id -> ours.contains(id.split(" ")[0]);
        return modules.stream().map(mod -> new Module(mod.dir(), mod.artifactId(),
                mod.compile().stream().filter(project).toList(), mod.test().stream().filter(project).toList()))
                .toList();
    }

    /** The modules under {@code dir}; an aggregator's own dependencies go to each of its modules (its children). */
    private static void collect(Path root, Path dir, Map<String, String> managed, List<Element> inherited,
            List<Module> into) {
        Element project = pom(dir.resolve("pom.xml"));
        List<Element> dependencies = new ArrayList<>(inherited);
        Element own = child(project, "dependencies");
        if (own != null) {
            dependencies.addAll(elements(own, "dependency"));
        }
        List<String> children = texts(child(project, "modules"), "module");
        if (!children.isEmpty()) {
            children.forEach(c -> collect(root, dir.resolve(c), managed, dependencies, into));
            return;
        }
        List<String> compile = new ArrayList<>();
        List<String> test = new ArrayList<>();
        for (Element d : dependencies) {
            if (!GROUP.equals(text(d, "groupId"))) {
                continue;
            }
            String scope = text(d, "scope") != null ? text(d, "scope") : managed.get(key(d));
            String id = text(d, "artifactId") + ("test-jar".equals(text(d, "type")) ? " (test-jar)" : "");
            ("test".equals(scope) ? test : compile).add(id + ("provided".equals(scope) ? " (provided)" : ""));
        }
        into.add(new Module(root.relativize(dir).toString(), text(project, "artifactId"), compile, test));
    }

    private static String key(Element dependency) {
        return text(dependency, "artifactId") + ":" + (text(dependency, "type") == null ? "jar"
                : text(dependency, "type"));
    }

    private static String moduleMap(Path root, List<Module> modules) {
        StringBuilder t = new StringBuilder("| module | package root | uses | uses in its tests |\n|---|---|---|---|\n");
        for (Module mod : modules) {
            t.append("| `").append(mod.dir()).append("` | ").append(code(packageRoot(root, mod))).append(" | ")
                    .append(list(mod.compile())).append(" | ").append(list(mod.test())).append(" |\n");
        }
        return t.toString();
    }

    private static String packageMap(Path root, List<Module> modules) {
        StringBuilder t = new StringBuilder();
        for (Module mod : modules) {
            Map<String, Set<String>> uses = packageUses(root, mod);
            if (uses.size() < 2) {
                continue;
            }
            String base = packageRoot(root, mod);
            t.append("**").append(mod.dir()).append("** (`").append(base).append("`), bottom first:\n\n")
                    .append("| layer | package | uses |\n|---|---|---|\n");
            Map<String, Integer> layers = layers(uses);
            Map<String, Set<String>> cycles = cycles(uses);
            uses.keySet().stream().sorted((a, b) -> layers.get(a).equals(layers.get(b)) ? a.compareTo(b)
                    : layers.get(a) - layers.get(b)).forEach(p -> {
                        String used = uses.get(p).isEmpty() ? "—" : uses.get(p).stream().map(u -> "`"
                                + relative(base, u) + "`").collect(Collectors.joining(", "));
                        Set<String> cycle = cycles.get(p);
                        t.append("| ").append(layers.get(p)).append(" | `").append(relative(base, p)).append("`")
                                .append(cycle == null ? "" : " (cycle with " + cycle.stream().filter(c -> !c.equals(p))
                                        .map(c -> "`" + relative(base, c) + "`").collect(Collectors.joining(", "))
                                        + ")").append(" | ").append(used).append(" |\n");
                    });
            t.append('\n');
        }
        return t.toString();
    }

    /** Each main package of the module and the packages of the same module its classes use. */
    static Map<String, Set<String>> packageUses(Path root, Module mod) {
        Path src = root.resolve(mod.dir()).resolve("src/main/java");
        Map<String, Set<String>> uses = new TreeMap<>();
        if (!Files.isDirectory(src)) {
            return uses;
        }
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                String pkg = src.relativize(f.getParent()).toString().replace('/', '.');
                uses.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(COMMENT_OR_TEXT.matcher(Files.readString(f, StandardCharsets.UTF_8))
                        .replaceAll(" "));
                while (m.find()) {
                    String used = GROUP + m.group(1);
                    if (!used.equals(pkg)) {
                        uses.get(pkg).add(used);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        uses.values().forEach(s -> s.retainAll(uses.keySet())); // the same module's packages only
        return uses;
    }

    /** The longest package every main package of the module is in (or under). */
    private static String packageRoot(Path root, Module mod) {
        List<String> packages = new ArrayList<>(packageUses(root, mod).keySet());
        if (packages.isEmpty()) {
            return "";
        }
        String common = packages.get(0);
        for (String p : packages) {
            while (!(p.equals(common) || p.startsWith(common + "."))) {
                common = common.substring(0, Math.max(0, common.lastIndexOf('.')));
            }
        }
        return common;
    }

    /** A package's layer: 0 when it uses none of its module's packages, else one above the highest it uses. */
    private static Map<String, Integer> layers(Map<String, Set<String>> uses) {
        Map<String, Set<String>> cycles = cycles(uses);
        Map<String, Integer> layers = new HashMap<>();
        for (String p : uses.keySet()) {
            layer(p, uses, cycles, layers);
        }
        return layers;
    }

    private static int layer(String p, Map<String, Set<String>> uses, Map<String, Set<String>> cycles,
            Map<String, Integer> layers) {
        Integer known = layers.get(p);
        if (known != null) {
            return known;
        }
        Set<String> group = cycles.getOrDefault(p, Set.of(p)); // a cycle is one layer
        group.forEach(g -> layers.put(g, 0));
        int layer = 0;
        for (String g : group) {
            for (String u : uses.get(g)) {
                if (!group.contains(u)) {
                    layer = Math.max(layer, layer(u, uses, cycles, layers) + 1);
                }
            }
        }
        for (String g : group) {
            layers.put(g, layer);
        }
        return layer;
    }

    /** The packages in a cycle, each with its strongly connected component (Tarjan). */
    private static Map<String, Set<String>> cycles(Map<String, Set<String>> uses) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Map<String, Set<String>> cycles = new LinkedHashMap<>();
        for (String p : uses.keySet()) {
            if (!index.containsKey(p)) {
                connect(p, uses, index, low, stack, cycles);
            }
        }
        return cycles;
    }

    private static void connect(String p, Map<String, Set<String>> uses, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Map<String, Set<String>> cycles) {
        index.put(p, index.size());
        low.put(p, index.get(p));
        stack.push(p);
        for (String u : uses.get(p)) {
            if (!index.containsKey(u)) {
                connect(u, uses, index, low, stack, cycles);
                low.put(p, Math.min(low.get(p), low.get(u)));
            } else if (stack.contains(u)) {
                low.put(p, Math.min(low.get(p), index.get(u)));
            }
        }
        if (low.get(p).equals(index.get(p))) {
            Set<String> component = new TreeSet<>();
            String q;
            do {
                q = stack.pop();
                component.add(q);
            } while (!q.equals(p));
            if (component.size() > 1) {
                component.forEach(c -> cycles.put(c, component));
            }
        }
    }

    private static String relative(String base, String pkg) {
        return pkg.equals(base) ? "." : pkg.substring(base.length() + 1);
    }

    private static String code(String s) {
        return s.isEmpty() ? "—" : "`" + s + "`";
    }

    private static String list(List<String> ids) {
        return ids.isEmpty() ? "—" : String.join(", ", ids);
    }

    private static Element pom(Path file) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return f.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + file + ": " + e, e);
        }
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static List<Element> elements(Element parent, String name) {
        List<Element> list = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element e && e.getTagName().equals(name)) {
                list.add(e);
            }
        }
        return list;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }

    private static List<String> texts(Element parent, String name) {
        return parent == null ? List.of() : elements(parent, name).stream().map(e -> e.getTextContent().trim())
                .toList();
    }
}
