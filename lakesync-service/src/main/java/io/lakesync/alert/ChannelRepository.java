package io.lakesync.alert;

import java.util.List;
import java.util.Optional;

/** The stored notification channels. Every change is audited as the given actor. */
public interface ChannelRepository {

    /** All channels, by name. */
    List<ChannelConfig> list();

    Optional<ChannelConfig> get(String name);

    /**
     * Creates the channel or replaces the one with its name.
     *
     * @return true if it was created, false if it replaced one
     */
    boolean save(ChannelConfig channel, String actor);

    /**
     * @return false if there was no such channel
     * @throws ChannelInUseException if alert rules still send to it
     */
    boolean delete(String name, String actor);
}
