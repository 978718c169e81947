package io.odradek.log.segment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Releases a memory mapping now rather than when the garbage collector gets to its buffer, as Kafka's
 * ByteBufferUnmapper does: Java 17 has no public unmap, and a broker with thousands of partitions would
 * otherwise keep every index it ever touched mapped (vm.max_map_count) until a GC that may never come.
 *
 * <p>It goes through {@code sun.misc.Unsafe.invokeCleaner} (module jdk.unsupported), looked up once by
 * name so the build needs no internal API. Where that is unavailable the buffer is only dropped and the
 * GC unmaps it later. The caller must guarantee nobody touches the buffer afterwards: access after an
 * unmap crashes the JVM, which is why {@link MappedIndex} counts its readers.
 */
final class Unmapper {
    private static final MethodHandle INVOKE_CLEANER = lookup();

    private Unmapper() {
    }

    private static MethodHandle lookup() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            MethodHandle cleaner = MethodHandles.lookup().findVirtual(unsafeClass, "invokeCleaner",
                    MethodType.methodType(void.class, ByteBuffer.class));
            return cleaner.bindTo(theUnsafe.get(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    static void unmap(MappedByteBuffer buffer) {
        if (INVOKE_CLEANER == null || buffer.capacity() == 0) {
            return;
        }
        try {
            INVOKE_CLEANER.invokeExact((ByteBuffer) buffer);
        } catch (Throwable e) {
            // left to the GC; the mapping goes when the buffer is collected
        }
    }
}
