package io.odradek.wire.oracle;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Builds Kafka's own generated message objects ({@code org.apache.kafka.common.message.*Data}) with
 * random values, driven by Kafka's JSON schema rather than by our tables, through the generated setters
 * (a field "ThrottleTimeMs" has the setter {@code setThrottleTimeMs(int)}). Nested structs are inner classes
 * of the message class named after their type. The objects belong to the given {@link KafkaRelease}.
 */
public final class RandomKafkaMessages {
    private final KafkaRelease release;
    private final RandomValues random;

    public RandomKafkaMessages(KafkaRelease release, long seed) {
        this.release = release;
        this.random = new RandomValues(seed);
    }

    /** A message of the release's generated class for {@code spec}, ready for {@link KafkaRelease#write}. */
    public Object build(KafkaMessageSpec spec, short version) {
        Class<?> type = release.messageClass(spec.name());
        return fill(type, type, spec.fields(), version, spec.flexibleVersions().contains(version));
    }

    private Object fill(Class<?> message, Class<?> type, List<KafkaField> fields, short version, boolean flexible) {
        try {
            Object object = type.getConstructor().newInstance();
            for (KafkaField field : fields) {
                if (!field.versions().contains(version) || (field.isTagged() && (!flexible || random.chance(40)))) {
                    continue;
                }
                Method setter = setter(type, field);
                Object value = field.nullableVersions().contains(version) && random.chance(20)
                        ? null
                        : value(message, field, setter.getParameterTypes()[0], version, flexible);
                setter.invoke(object, value);
            }
            return object;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getName(), e);
        }
    }

    private static Method setter(Class<?> type, KafkaField field) {
        String name = "set" + Character.toUpperCase(field.name().charAt(0)) + field.name().substring(1);
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 1) {
                return m;
            }
        }
        throw new IllegalStateException(type.getName() + " has no setter " + name);
    }

    @SuppressWarnings("unchecked")
    private Object value(Class<?> message, KafkaField field, Class<?> javaType, short version, boolean flexible)
            throws ReflectiveOperationException {
        if (field.isStruct()) {
            return fill(message, nestedClass(message, field), field.fields(), version, flexible);
        }
        if (field.isArray()) {
            Collection<Object> list = javaType.isInterface()
                    ? new ArrayList<>()
                    : (Collection<Object>) javaType.getConstructor().newInstance();
            int size = random.arraySize();
            for (int i = 0; i < size; i++) {
                list.add(field.hasStructs()
                        ? fill(message, nestedClass(message, field), field.fields(), version, flexible)
                        : primitive(field.baseType(), false));
            }
            return list;
        }
        return primitive(field.type(), field.zeroCopy());
    }

    private Class<?> nestedClass(Class<?> message, KafkaField field) {
        return release.type(message.getName() + "$" + field.baseType());
    }

    private Object primitive(String type, boolean zeroCopy) {
        return switch (type) {
            case "int8" -> (byte) random.random.nextInt();
            case "int16" -> (short) random.random.nextInt();
            case "uint16" -> random.random.nextInt(65536);
            case "int32" -> random.random.nextInt();
            case "int64" -> random.random.nextLong();
            case "float64" -> random.float64();
            case "bool" -> random.random.nextBoolean();
            case "uuid" -> release.uuid(random.random.nextLong(), random.random.nextLong());
            case "string" -> random.string();
            case "bytes" -> zeroCopy ? ByteBuffer.wrap(random.bytes()) : random.bytes();
            case "records" -> release.memoryRecords(random.bytes());
            default -> throw new IllegalArgumentException("no random " + type);
        };
    }
}
