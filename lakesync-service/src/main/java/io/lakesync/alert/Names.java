package io.lakesync.alert;

import java.util.regex.Pattern;

/** The one naming rule of alert rules and channels, so they are safe in URLs, logs and lists. */
final class Names {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private Names() {}

    /** Returns {@code name} if valid, else throws naming {@code field}. */
    static String check(String subject, String field, String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidAlertConfigException(subject, field,
                    "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit; got "
                            + (name == null ? "nothing" : "'" + name + "'") + ".");
        }
        return name;
    }
}
