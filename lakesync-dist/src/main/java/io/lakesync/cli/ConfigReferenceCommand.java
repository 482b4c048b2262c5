package io.lakesync.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code lakesync config-reference}: the Markdown table of every option, as in README.md. */
@Command(
        name = "config-reference",
        mixinStandardHelpOptions = true,
        description = "Prints every configuration option (key, type, default, description) as a Markdown table.")
final class ConfigReferenceCommand implements Callable<Integer> {

    @Spec private CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(ConfigReference.markdown());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
