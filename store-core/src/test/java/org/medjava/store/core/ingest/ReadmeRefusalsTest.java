package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * The documentation's statements of what is refused and why are what the code does: every committed sample the
 * README, docs/http-api.md or docs/pacs.md names with an HTTP status ("(`MR_truncated.dcm`: 422)") gets that status
 * from an HTTP PUT through the ingest door (201 for one it says is accepted), and every problem the DICOM rule set
 * names its refusals by is named there.
 * Whoever changes a verdict or adds a refusal reason changes those pages in the same commit, or this fails.
 */
class ReadmeRefusalsTest {

    static final Path ROOT = Path.of(System.getProperty("medjava.root", ".."));
    /** A committed sample named in backticks, then a colon and the HTTP status the README says it gets. */
    private static final Pattern CLAIM = Pattern.compile("`([A-Za-z0-9_.-]+\\.dcm)`: (\\d{3})");

    @TempDir
    Path dir;
    private DicomIndex index;
    private Ingest ingest;

    @BeforeEach
    void open() throws java.io.IOException {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        ingest = Ingest.builder(new ImageRepository(new LocalFileStorage(dir.resolve("images")), 1 << 26), index,
                new UploadValidator(1 << 24), DuplicatePolicy.REPLACE).build();
    }

    @AfterEach
    void close() {
        index.close();
    }

    record Claim(String sample, int status) {
    }

    /** The pages that state refusals: the README and the docs the HTTP and DICOM refusals moved to. */
    static String readme() throws Exception {
        StringBuilder pages = new StringBuilder();
        for (String page : List.of("README.md", "docs/http-api.md", "docs/pacs.md")) {
            pages.append(Files.readString(ROOT.resolve(page), StandardCharsets.UTF_8)).append('\n');
        }
        return pages.toString();
    }

    static List<Claim> claims(String readme) {
        List<Claim> claims = new ArrayList<>();
        Matcher m = CLAIM.matcher(readme);
        while (m.find()) {
            claims.add(new Claim(m.group(1), Integer.parseInt(m.group(2))));
        }
        return claims;
    }

    static Path sample(String name) throws Exception {
        try (var files = Files.walk(ROOT.resolve("testdata"))) {
            return files.filter(p -> p.getFileName().toString().equals(name) && !p.toString().contains("/target/"))
                    .findFirst().orElse(null);
        }
    }

    /** The HTTP status of a PUT of the sample through the ingest door (201: stored). */
    private int put(Path sample) throws Exception {
        try (InputStream body = Files.newInputStream(sample)) {
            StoreException refused = catchThrowableOfType(() -> ingest.put(StorePath.parse("dicom/readme/"
                    + sample.getFileName()), body, Files.size(sample), "application/dicom", Preconditions.NONE,
                            TestCallers.USER),
                    StoreException.class);
            return refused == null ? 201 : refused.kind().status;
        }
    }

    @Test
    void everySampleTheReadmeNamesGetsTheStatusItSays() throws Exception {
        List<Claim> claims = claims(readme());
        assertThat(claims).as("the README names samples with their HTTP status").isNotEmpty();
        for (Claim c : claims) {
            Path sample = sample(c.sample());
            assertThat(sample).as("README names " + c.sample() + ", which is not under testdata/").isNotNull();
            assertThat(put(sample)).as("README says " + c.sample() + " gets " + c.status() + " from a PUT")
                    .isEqualTo(c.status());
        }
    }

    @Test
    void everyReasonTheRuleSetGivesIsInTheReadme() throws Exception {
        String readme = readme().toLowerCase(Locale.ROOT);
        for (DicomRules.Problem problem : DicomRules.Problem.values()) {
            String w = problem.words;
            assertThat(readme).as("the README names the refusal reason \"" + w + "\" (DicomRules.Problem)")
                    .contains(w.toLowerCase(Locale.ROOT));
        }
    }
}
