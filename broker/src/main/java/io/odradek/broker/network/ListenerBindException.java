package io.odradek.broker.network;

/** A listener could not bind its address (taken, not local...): which listener, and the system's reason. */
public final class ListenerBindException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String listenerName;

    public ListenerBindException(String listenerName, Throwable cause) {
        // Netty's native transport says "bind(..) failed: Address already in use"; keep only the reason.
        super(String.valueOf(cause.getMessage()).replaceFirst("^bind\\(\\.\\.\\) failed[^:]*: ", ""), cause);
        this.listenerName = listenerName;
    }

    public String listenerName() {
        return listenerName;
    }
}
