package io.odradek.embedded;

/**
 * Netty 4.2 describes its buffer allocations as JFR events whenever the JVM has JFR; the first allocation (a
 * broker's first request) then initializes the JVM's whole JFR event machinery: in a fresh JVM on a busy 2-core
 * machine the first request took 1.2-1.7 s with it and 0.2-0.5 s without. Nobody records those events in a test run, so
 * an embedded broker switches them off ({@code io.netty.jfr.enabled=false}) unless the property was set (a user
 * profiling Netty sets it to true). Only effective before Netty's first use in the JVM.
 */
final class NettyJfr {
    static final String PROPERTY = "io.netty.jfr.enabled";

    private NettyJfr() {
    }

    static void offUnlessSet() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "false");
        }
    }
}
