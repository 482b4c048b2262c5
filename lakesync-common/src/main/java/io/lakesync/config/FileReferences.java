package io.lakesync.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Config values given as {@value #PREFIX}{@code FILE}, in the YAML file or in {@code --set}: the value is the
 * file's content (trailing line breaks dropped), so a secret can come from a mounted file and never appears on a
 * command line. A value read from a file is never repeated in an error message.
 */
final class FileReferences {

    static final String PREFIX = "@";

    /** Every value with its file references read, and which keys were read from a file. */
    record Resolved(Map<String, String> values, Set<String> readFromFiles) {}

    private FileReferences() {}

    /**
     * Reads every {@value #PREFIX}{@code FILE} value of {@code raw}.
     *
     * @throws ConfigException naming the key and the file if one cannot be read
     */
    static Resolved resolve(Map<String, String> raw, String source) {
        Map<String, String> values = new LinkedHashMap<>();
        Set<String> fromFiles = new LinkedHashSet<>();
        raw.forEach((key, value) -> {
            if (value.startsWith(PREFIX)) {
                values.put(key, read(key, Path.of(value.substring(PREFIX.length())), source));
                fromFiles.add(key);
            } else {
                values.put(key, value);
            }
        });
        return new Resolved(values, Collections.unmodifiableSet(fromFiles));
    }

    private static String read(String key, Path file, String source) {
        String why;
        try {
            return Files.readString(file, StandardCharsets.UTF_8).replaceAll("[\r\n]+$", "");
        } catch (NoSuchFileException e) {
            why = "there is no such file; mount it there or correct the path";
        } catch (IOException e) {
            why = "cannot read it (" + (Files.isDirectory(file) ? "a folder" : e.getClass().getSimpleName())
                    + "); give a file lakesync may read, holding only the value";
        }
        throw new ConfigException("Cannot read config key '" + key + "' from file " + file + " (given as '" + PREFIX
                + file + "' in " + source + "): " + why + ".");
    }
}
