package io.lakesync.alert;

/**
 * An alert rule or notification channel was refused; {@link #field()} names the offending field and the message
 * says what was wrong and what is accepted. The HTTP layer answers it with 400.
 */
public class InvalidAlertConfigException extends IllegalArgumentException {

    private final String field;

    /**
     * @param subject what was refused, for example {@code Alert rule 'lag'}
     * @param field the field at fault, as the API spells it
     * @param problem what is wrong with it
     */
    public InvalidAlertConfigException(String subject, String field, String problem) {
        super(subject + ": '" + field + "' " + problem);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
