package io.lakesync.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.fluss.metadata.TablePath;

/**
 * Reads what a request sent (JSON body, query and path parameters) or throws an {@link InvalidInputException}
 * naming the field, so that no malformed input reaches a capability, or Fluss, and none ends in a 500.
 */
public final class RequestInput {

    private RequestInput() {}

    /** The JSON body as {@code type}; unknown fields, wrong types and malformed JSON are refused. */
    public static <T> T body(Context ctx, Class<T> type) {
        if (ctx.body().isBlank()) {
            throw new InvalidInputException("body", "The request body is empty; send a JSON object.");
        }
        try {
            return ctx.bodyAsClass(type);
        } catch (Exception e) {
            // Javalin's Jackson mapper throws Jackson's checked exceptions undeclared.
            if (e instanceof JsonProcessingException json) {
                throw refusal(json);
            }
            throw e;
        }
    }

    /** The {@code {db}} and {@code {table}} path parameters, checked against Fluss's naming rule. */
    public static TablePath tablePath(Context ctx) {
        String database = checkedName(ctx, "db");
        String table = checkedName(ctx, "table");
        return TablePath.of(database, table);
    }

    /** A query parameter that must be {@code true} or {@code false} if given. */
    public static Optional<Boolean> booleanQuery(Context ctx, String name) {
        return query(ctx, name).map(text -> switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InvalidInputException(name,
                    "Query parameter '" + name + "' must be true or false; got '" + text + "'.");
        });
    }

    /** A query parameter that must be a whole number from {@code min} to {@code max} if given. */
    public static Optional<Integer> intQuery(Context ctx, String name, int min, int max) {
        return query(ctx, name).map(text -> {
            try {
                int value = Integer.parseInt(text);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // the message below says what is accepted
            }
            throw new InvalidInputException(name, "Query parameter '" + name + "' must be a whole number from "
                    + min + " to " + max + "; got '" + text + "'.");
        });
    }

    /** A query parameter that must be an ISO-8601 instant such as {@code 2026-11-30T10:00:00Z} if given. */
    public static Optional<Instant> instantQuery(Context ctx, String name) {
        return query(ctx, name).map(text -> {
            try {
                return Instant.parse(text);
            } catch (DateTimeParseException e) {
                throw new InvalidInputException(name, "Query parameter '" + name + "' must be an ISO-8601 time "
                        + "such as 2026-11-30T10:00:00Z; got '" + text + "'.");
            }
        });
    }

    private static Optional<String> query(Context ctx, String name) {
        return Optional.ofNullable(ctx.queryParam(name)).map(String::trim);
    }

    private static String checkedName(Context ctx, String parameter) {
        String name = ctx.pathParam(parameter);
        String problem = TablePath.detectInvalidName(name);
        if (problem != null) {
            throw new InvalidInputException(parameter,
                    "Path parameter '" + parameter + "' is not a valid Fluss name: " + problem);
        }
        return name;
    }

    private static InvalidInputException refusal(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            String known = unknown.getKnownPropertyIds() == null ? "" : unknown.getKnownPropertyIds().stream()
                    .map(String::valueOf).sorted().collect(Collectors.joining(", "));
            return new InvalidInputException(unknown.getPropertyName(), "Unknown field '"
                    + unknown.getPropertyName() + "'" + (known.isEmpty() ? "." : "; the fields are: " + known + "."));
        }
        if (e instanceof JsonMappingException mapping) {
            String field = fieldPath(mapping);
            String expected = mapping instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null
                    ? " must be " + describe(mismatch.getTargetType())
                    : " has a value that does not fit";
            String subject = field.equals("body") ? "The request body" : "Field '" + field + "'";
            return new InvalidInputException(field, subject + expected + ".");
        }
        String where = e.getLocation() == null ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        return new InvalidInputException("body", "The request body is not valid JSON" + where + ": "
                + e.getOriginalMessage());
    }

    private static String fieldPath(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.length() == 0 ? "body" : path.toString();
    }

    private static String describe(Class<?> type) {
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        return "a JSON object";
    }
}
