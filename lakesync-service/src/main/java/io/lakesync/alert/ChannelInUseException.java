package io.lakesync.alert;

import java.util.List;

/** A channel cannot be deleted while alert rules send to it; the HTTP layer answers it with 409. */
public class ChannelInUseException extends RuntimeException {

    private final List<String> rules;

    public ChannelInUseException(String channel, List<String> rules) {
        super("Channel '" + channel + "' is still used by alert rule(s) " + String.join(", ", rules)
                + "; remove it from their 'channels' or delete them first.");
        this.rules = List.copyOf(rules);
    }

    public List<String> rules() {
        return rules;
    }
}
