package io.lakesync.server;

/**
 * A request was refused because of what it sent; {@link #field()} names the body field, query or path parameter
 * at fault (or {@code body} for the body as a whole) and the message says what is accepted. {@link HttpApi} answers
 * it, and every subclass, with 400 and {@code {"error": message, "field": field}}.
 */
public class InvalidInputException extends IllegalArgumentException {

    private final String field;

    public InvalidInputException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
