package io.lakesync.local;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test class of the "cluster" layer: it starts real servers (Fluss and ZooKeeper, PostgreSQL, an S3
 * server, Flink, a browser, a child JVM), or runs the start-up warm-up's hundreds of thousands of rows. The rest
 * is the unit layer, which runs alone in under a minute ({@code ./lakesync test --unit}). On a base class it
 * covers every subclass.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag("cluster")
public @interface ClusterTest {}
