package io.odradek.broker.handlers;

import io.odradek.wire.ErrorCode;

/** Kafka's default messages (Errors.message()) for the errors the share group offset APIs put in ErrorMessage fields. */
final class ShareGroupErrors {
    private ShareGroupErrors() {
    }

    static String message(ErrorCode error) {
        return switch (error) {
            case NONE -> null;
            case UNKNOWN_TOPIC_OR_PARTITION -> "This server does not host this topic-partition.";
            case TOPIC_AUTHORIZATION_FAILED -> "Topic authorization failed.";
            case GROUP_AUTHORIZATION_FAILED -> "Group authorization failed.";
            case NON_EMPTY_GROUP -> "The group is not empty.";
            case GROUP_ID_NOT_FOUND -> "The group id does not exist.";
            case COORDINATOR_NOT_AVAILABLE -> "The coordinator is not available.";
            case NOT_COORDINATOR -> "This is not the correct coordinator.";
            case COORDINATOR_LOAD_IN_PROGRESS -> "The coordinator is loading and hence can't process requests.";
            default -> error.name();
        };
    }
}
