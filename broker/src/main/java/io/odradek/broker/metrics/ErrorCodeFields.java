package io.odradek.broker.metrics;

import io.odradek.wire.schema.Field;
import io.odradek.wire.schema.Schema;
import io.odradek.wire.schema.Struct;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a response schema carries error codes: its {@code ErrorCode} field and the nested structs and arrays that
 * lead to more (the partitions of a Fetch or Produce response), found once per API from its schema. Walking a
 * response visits only those paths, reading one short per struct: Kafka's {@code AbstractResponse.errorCounts},
 * for the {@code ErrorsPerSec} meters.
 */
final class ErrorCodeFields {
    /** Told each error code found, in order. */
    interface Visitor {
        void code(short code);
    }

    private final Field<?> errorCode; // null when this level has none
    private final Field<?>[] nested;
    private final ErrorCodeFields[] nestedCodes;

    private ErrorCodeFields(Field<?> errorCode, List<Field<?>> nested, List<ErrorCodeFields> nestedCodes) {
        this.errorCode = errorCode;
        this.nested = nested.toArray(Field<?>[]::new);
        this.nestedCodes = nestedCodes.toArray(ErrorCodeFields[]::new);
    }

    /** The error-code paths of {@code schema}, or null when it has no error code anywhere. */
    static ErrorCodeFields of(Schema schema) {
        Field<?> code = null;
        List<Field<?>> nested = new ArrayList<>();
        List<ErrorCodeFields> nestedCodes = new ArrayList<>();
        for (Field<?> f : schema.fields()) {
            if (f.name().equals("ErrorCode") && f.nestedSchema() == null && f.defaultValue() instanceof Short) {
                code = f;
            } else if (f.nestedSchema() != null) {
                ErrorCodeFields inner = of(f.nestedSchema());
                if (inner != null) {
                    nested.add(f);
                    nestedCodes.add(inner);
                }
            }
        }
        return code == null && nested.isEmpty() ? null : new ErrorCodeFields(code, nested, nestedCodes);
    }

    /** Every error code of {@code struct} that {@code version} has. */
    void forEach(Struct struct, short version, Visitor visitor) {
        if (errorCode != null && errorCode.presentIn(version) && struct.get(errorCode) instanceof Short code) {
            visitor.code(code);
        }
        for (int i = 0; i < nested.length; i++) {
            if (!nested[i].presentIn(version)) {
                continue;
            }
            Object value = struct.get(nested[i]);
            if (value instanceof Struct s) {
                nestedCodes[i].forEach(s, version, visitor);
            } else if (value instanceof List<?> list) {
                for (int j = 0, n = list.size(); j < n; j++) { // indexed: no iterator per list
                    if (list.get(j) instanceof Struct s) {
                        nestedCodes[i].forEach(s, version, visitor);
                    }
                }
            }
        }
    }
}
