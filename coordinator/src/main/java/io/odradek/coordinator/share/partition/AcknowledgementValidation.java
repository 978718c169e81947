package io.odradek.coordinator.share.partition;

import io.odradek.wire.ErrorCode;
import java.util.List;

/**
 * The shape checks Kafka makes on acknowledgement batches before looking at any record (INVALID_REQUEST):
 * first offset after last, batches out of order or overlapping, no types, a type list whose length is neither
 * 1 nor the range's length. (An unknown type id never gets here: {@link AcknowledgeType#of} answers null for it
 * and the handler answers INVALID_REQUEST.)
 */
final class AcknowledgementValidation {
    private AcknowledgementValidation() {
    }

    static ErrorCode check(List<Acknowledgement> acknowledgements) {
        long next = Long.MIN_VALUE;
        for (Acknowledgement a : acknowledgements) {
            if (a.firstOffset() > a.lastOffset() || a.firstOffset() < next) {
                return ErrorCode.INVALID_REQUEST;
            }
            int n = a.types().size();
            if (n == 0 || (n > 1 && a.lastOffset() - a.firstOffset() + 1 != n)) {
                return ErrorCode.INVALID_REQUEST;
            }
            next = a.lastOffset() + 1;
        }
        return ErrorCode.NONE;
    }
}
