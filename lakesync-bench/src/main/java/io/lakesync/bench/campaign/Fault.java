package io.lakesync.bench.campaign;

import java.util.SplittableRandom;

/**
 * One kind of fault the campaign injects: {@link #inject} starts it (drawing what it needs, such as which
 * instance, from the campaign's random stream), the fault holds for the time the plan gave it, {@link #heal}
 * ends it.
 */
interface Fault {

    /** A short name, as {@code --kinds} takes it and the report shows it. */
    String name();

    /** How the fault is caused, in a few words. */
    String description();

    /** Starts the fault; returns what it did, for the progress line. */
    String inject(SplittableRandom random) throws Exception;

    /** Ends the fault. */
    void heal() throws Exception;
}
