package io.lakesync.alert;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A named notification channel that alert rules send their events to.
 *
 * @param name unique name; letters, digits, '.', '_', '-'
 * @param type where events go
 * @param url for {@link Type#WEBHOOK}: the absolute http(s) URL events are POSTed to; null for {@link Type#LOG}
 */
public record ChannelConfig(String name, Type type, URI url) {

    /** The kinds of channel. */
    public enum Type {
        /** One SLF4J line per event. */
        LOG,
        /** A JSON POST per event to an HTTP endpoint, retried on failure. */
        WEBHOOK
    }

    /** @throws InvalidAlertConfigException naming the field that is wrong */
    public ChannelConfig {
        Names.check("Channel", "name", name);
        String subject = "Channel '" + name + "'";
        if (type == null) {
            throw new InvalidAlertConfigException(subject, "type", "is required: log or webhook.");
        }
        if (type == Type.LOG && url != null) {
            throw new InvalidAlertConfigException(subject, "url", "is only for webhook channels; leave it out.");
        }
        if (type == Type.WEBHOOK) {
            if (url == null) {
                throw new InvalidAlertConfigException(subject, "url", "is required for a webhook channel.");
            }
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
                throw new InvalidAlertConfigException(subject, "url",
                        "must be an absolute http:// or https:// URL with a host; got '" + url + "'.");
            }
        }
    }

    /** The URL as callers who may not see it get it: its scheme only, for example {@code https://***}. */
    public String redactedUrl() {
        return url == null ? null : url.getScheme() + "://***";
    }

    /** A log channel. */
    public static ChannelConfig log(String name) {
        return new ChannelConfig(name, Type.LOG, null);
    }

    /** A webhook channel. */
    public static ChannelConfig webhook(String name, URI url) {
        return new ChannelConfig(name, Type.WEBHOOK, url);
    }

    /**
     * Parses a channel as users write it: {@code type} is {@code log} or {@code webhook} (any case), {@code url}
     * may be null.
     *
     * @throws InvalidAlertConfigException naming the field that is wrong
     */
    public static ChannelConfig parse(String name, String type, String url) {
        String subject = "Channel '" + name + "'";
        Type parsedType;
        try {
            parsedType = type == null ? null : Type.valueOf(type.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidAlertConfigException(subject, "type", "must be log or webhook; got '" + type + "'.");
        }
        URI parsedUrl;
        try {
            parsedUrl = url == null ? null : new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new InvalidAlertConfigException(subject, "url", "is not a valid URL: " + e.getMessage() + ".");
        }
        return new ChannelConfig(name, parsedType, parsedUrl);
    }
}
