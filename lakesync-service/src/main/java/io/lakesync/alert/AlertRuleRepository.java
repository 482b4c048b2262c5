package io.lakesync.alert;

import java.util.List;
import java.util.Optional;

/** The stored alert rules. Every change is audited as the given actor. */
public interface AlertRuleRepository {

    /** All rules, by name. */
    List<AlertRule> list();

    Optional<AlertRule> get(String name);

    /**
     * Creates the rule or replaces the one with its name.
     *
     * @return true if it was created, false if it replaced one
     * @throws InvalidAlertConfigException naming {@code channels} if a channel does not exist
     */
    boolean save(AlertRule rule, String actor);

    /** @return false if there was no such rule */
    boolean delete(String name, String actor);
}
