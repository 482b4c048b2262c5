package io.lakesync.usage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.annotation.Nullable;

/**
 * The usage this instance could not write to the state store yet, on disk, so that it outlives a crash during a
 * database outage: the next start writes it. The batch a write was tried with keeps its key, so if that commit went
 * through after all it is not added twice; the usage in no batch never reached the store.
 *
 * <p>One line per table and hour: {@code key hour database table rounds cpu memory cu rows bytes}, key {@code -}
 * for usage in no batch yet (Fluss names hold no spaces). The file is rewritten whole and moved over the old one,
 * so a crash leaves the old or the new one, never half of one.
 */
final class UsageSpool {

    private static final String NO_KEY = "-";

    private final Path file;

    UsageSpool(Path file) {
        this.file = file;
    }

    /** What a previous run left: the batch it tried (null if none) and the usage in no batch. */
    record Contents(@Nullable UsageBatch tried, List<HourlyUsage> unbatched) {}

    boolean exists() {
        return Files.exists(file);
    }

    Contents load() throws IOException {
        if (!exists()) {
            return new Contents(null, List.of());
        }
        String key = null;
        List<HourlyUsage> tried = new ArrayList<>();
        List<HourlyUsage> unbatched = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.split(" ");
            if (f.length != 10) {
                throw new IOException("Unreadable line in " + file + ": " + line);
            }
            HourlyUsage usage = new HourlyUsage(Instant.ofEpochMilli(Long.parseLong(f[1])), f[2], f[3],
                    Long.parseLong(f[4]), Double.parseDouble(f[5]), Double.parseDouble(f[6]), Double.parseDouble(f[7]),
                    Long.parseLong(f[8]), Long.parseLong(f[9]));
            if (f[0].equals(NO_KEY)) {
                unbatched.add(usage);
            } else {
                key = f[0];
                tried.add(usage);
            }
        }
        return new Contents(key == null ? null : new UsageBatch(key, tried), unbatched);
    }

    /** Replaces what is on disk with {@code tried} (may be null) and {@code unbatched}, durably. */
    void save(@Nullable UsageBatch tried, Collection<HourlyUsage> unbatched) throws IOException {
        StringBuilder text = new StringBuilder();
        if (tried != null) {
            tried.usage().forEach(u -> append(text, tried.key(), u));
        }
        unbatched.forEach(u -> append(text, NO_KEY, u));
        Files.createDirectories(file.getParent());
        Path next = file.resolveSibling(file.getFileName() + ".next");
        try (FileChannel channel = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        }
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Everything was written: nothing is left for the next start. */
    void clear() throws IOException {
        Files.deleteIfExists(file);
    }

    /** Moves an unreadable file aside, so that it is kept for a look but not read again. */
    Path setAside() throws IOException {
        Path aside = file.resolveSibling(file.getFileName() + ".unreadable-" + System.currentTimeMillis());
        Files.move(file, aside);
        return aside;
    }

    Path file() {
        return file;
    }

    private static void append(StringBuilder text, String key, HourlyUsage u) {
        text.append(key).append(' ').append(u.hour().toEpochMilli()).append(' ').append(u.database()).append(' ')
                .append(u.table()).append(' ').append(u.rounds()).append(' ').append(u.cpuSeconds()).append(' ')
                .append(u.memoryGibSeconds()).append(' ').append(u.cuHours()).append(' ').append(u.rows())
                .append(' ').append(u.bytes()).append('\n');
    }
}
