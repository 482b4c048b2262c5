package io.lakesync.alert;

import java.util.Arrays;
import java.util.Optional;

/** How an alert rule compares a metric value with its threshold. */
public enum Comparison {
    GREATER(">"),
    GREATER_OR_EQUAL(">="),
    LESS("<"),
    LESS_OR_EQUAL("<=");

    private final String symbol;

    Comparison(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    /** Whether {@code value <symbol> threshold} holds. */
    public boolean holds(double value, double threshold) {
        switch (this) {
            case GREATER:
                return value > threshold;
            case GREATER_OR_EQUAL:
                return value >= threshold;
            case LESS:
                return value < threshold;
            default:
                return value <= threshold;
        }
    }

    public static Optional<Comparison> bySymbol(String symbol) {
        return Arrays.stream(values()).filter(c -> c.symbol.equals(symbol)).findFirst();
    }
}
