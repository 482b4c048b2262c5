package io.lakesync.alert;

import io.lakesync.server.InvalidInputException;

/**
 * An alert rule or notification channel was refused; {@link #field()} names the offending field and the message
 * says what was wrong and what is accepted. The HTTP layer answers it with 400, like every
 * {@link InvalidInputException}.
 */
public class InvalidAlertConfigException extends InvalidInputException {

    /**
     * @param subject what was refused, for example {@code Alert rule 'lag'}
     * @param field the field at fault, as the API spells it
     * @param problem what is wrong with it
     */
    public InvalidAlertConfigException(String subject, String field, String problem) {
        super(field, subject + ": '" + field + "' " + problem);
    }
}
