package io.lakesync.state;

import java.util.Optional;

/** Reads and sets the {@link ServiceSwitch}. */
public interface ServiceSwitchRepository {

    /** The switch as last set, or empty if nobody has set it yet (the caller decides what that means). */
    Optional<ServiceSwitch> get();

    /** Sets the switch, auditing the change as {@code actor}, and returns it as stored. */
    ServiceSwitch set(boolean enabled, String actor, String reason);
}
