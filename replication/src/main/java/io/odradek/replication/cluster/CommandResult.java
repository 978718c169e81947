package io.odradek.replication.cluster;

import io.odradek.security.acl.AclBinding;
import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * What applying a command did: the metadata offset it was applied at (wait for the local image to reach it
 * before reading the change back), an error for the whole command, per-item results in request order, a
 * value some commands return (a broker epoch, the first producer id of a block), and DeleteAcls' answer: per
 * filter, in order, the ACLs it removed (empty for other commands).
 */
public record CommandResult(long offset, ErrorCode error, String message, List<ItemResult> items, long value,
        List<List<AclBinding>> deletedAcls) {
    public CommandResult {
        items = List.copyOf(items);
        deletedAcls = deletedAcls.stream().map(List::copyOf).toList();
    }

    /** A result without deleted ACLs (every command but DeleteAcls). */
    public CommandResult(long offset, ErrorCode error, String message, List<ItemResult> items, long value) {
        this(offset, error, message, items, value, List.of());
    }

    public static CommandResult ok(long offset, List<ItemResult> items, long value) {
        return new CommandResult(offset, ErrorCode.NONE, null, items, value);
    }

    public static CommandResult failed(long offset, ErrorCode error, String message) {
        return new CommandResult(offset, error, message, List.of(), -1);
    }
}
