package io.odradek.embedded.junit;

import io.odradek.embedded.Odradek;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The JUnit 5 extension behind {@link EmbeddedOdradek}: starts the broker (or cluster) the annotation describes, for
 * the class or for each test, creates its topics, injects it, sets the requested system properties, and closes it
 * and restores them afterwards. Use the annotation; registering this class alone starts one broker per class.
 *
 * <pre>{@code
 * @EmbeddedOdradek(topics = "orders:3", lifecycle = Lifecycle.PER_TEST)
 * class FreshBrokerPerTest {
 *     @Test
 *     void startsEmpty(Odradek kafka, @BootstrapServers String servers) { ... }
 * }
 * }</pre>
 *
 * <p>State lives in the extension context's store (the class's context or the test's), which closes the broker
 * when that context ends; nothing is kept in this object, so classes and tests may run in parallel, each with its
 * own broker, port and data directory. A class broker is started by whichever comes first: {@code beforeAll}, a
 * constructor parameter, or (with {@code @TestInstance(PER_CLASS)}) the test instance's post-processing, so the
 * system properties are set before another extension (Spring's) builds its context from them.
 */
public final class OdradekExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback, TestInstancePostProcessor, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(OdradekExtension.class);

    /** What the store keeps for one annotated class (or one test): the broker and the properties it set. */
    private record Key(Class<?> annotated, String what) {
    }

    /** The annotation that applies and the class carrying it (the test class, a superclass, or an enclosing one). */
    private record Declared(Class<?> annotated, Settings settings) {
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Declared declared = declared(context);
        if (declared.settings().lifecycle() == Lifecycle.PER_TEST) {
            refuseStaticFields(context.getRequiredTestClass());
        }
        if (declared.settings().lifecycle() == Lifecycle.PER_CLASS) {
            Odradek odradek = classOdradek(context, declared);
            injectStaticFields(context.getRequiredTestClass(), odradek);
            context.getTestInstance().ifPresent(instance -> injectInstanceFields(instance, odradek));
        }
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
        Declared declared = declared(context);
        if (declared.settings().lifecycle() == Lifecycle.PER_CLASS) {
            injectInstanceFields(testInstance, classOdradek(context, declared));
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Declared declared = declared(context);
        Odradek odradek;
        if (declared.settings().lifecycle() == Lifecycle.PER_TEST) {
            odradek = testOdradek(context, declared);
        } else {
            odradek = classOdradek(context, declared);
        }
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            injectInstanceFields(instance, odradek);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (declared(context).settings().lifecycle() == Lifecycle.PER_TEST) {
            restoreProperties(context);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Declared declared = declared(context);
        if (declared.settings().lifecycle() == Lifecycle.PER_CLASS && ownsClassBroker(context, declared)) {
            restoreProperties(context);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == Odradek.class || (type == String.class && parameter.isAnnotated(BootstrapServers.class));
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Declared declared = declared(context);
        Odradek odradek;
        if (declared.settings().lifecycle() == Lifecycle.PER_CLASS) {
            odradek = classOdradek(context, declared);
        } else if (context.getTestMethod().isPresent()) {
            odradek = testOdradek(context, declared);
        } else {
            throw new ParameterResolutionException("@EmbeddedOdradek(lifecycle = PER_TEST) starts a broker for each"
                    + " test; " + parameter.getDeclaringExecutable() + " runs outside a test and cannot have it");
        }
        return parameter.getParameter().getType() == Odradek.class ? odradek : odradek.bootstrapServers();
    }

    // ---------------------------------------------------------------- brokers in the store

    /**
     * The class's broker, started on first need and kept in the store of the annotated class's context, so a
     * {@code @Nested} class without its own annotation shares its enclosing class's broker.
     */
    private static Odradek classOdradek(ExtensionContext context, Declared declared) {
        ExtensionContext owner = classContext(context, declared.annotated());
        return owner.getStore(NAMESPACE).getOrComputeIfAbsent(new Key(declared.annotated(), "broker"),
                key -> start(owner, declared), StoredOdradek.class).odradek();
    }

    /** The test's own broker, kept in its (method) context's store. */
    private static Odradek testOdradek(ExtensionContext context, Declared declared) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(new Key(declared.annotated(), "broker"),
                key -> start(context, declared), StoredOdradek.class).odradek();
    }

    /** Starts a broker and sets the system properties for the life of {@code owner}. */
    private static StoredOdradek start(ExtensionContext owner, Declared declared) {
        Odradek odradek;
        try {
            odradek = declared.settings().start();
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException("@EmbeddedOdradek on " + declared.annotated().getName()
                    + ": " + e.getMessage(), e);
        }
        owner.getStore(NAMESPACE).put(new Key(declared.annotated(), "properties"),
                SystemProperties.set(declared.settings().properties(), odradek.bootstrapServers()));
        return new StoredOdradek(odradek);
    }

    private static void restoreProperties(ExtensionContext context) {
        Key key = new Key(declared(context).annotated(), "properties");
        // Only this context's own entry: a parent's is restored when the parent ends.
        SystemProperties set = context.getStore(NAMESPACE).remove(key, SystemProperties.class);
        if (set != null) {
            set.restore();
        }
    }

    /** Whether {@code context} is the class context the class broker belongs to (not a @Nested class sharing it). */
    private static boolean ownsClassBroker(ExtensionContext context, Declared declared) {
        return context.getRequiredTestClass() == declared.annotated()
                || !isEnclosing(declared.annotated(), context.getRequiredTestClass());
    }

    /** The context of the class {@code annotated} (or the nearest class context, for a subclass carrying it). */
    private static ExtensionContext classContext(ExtensionContext context, Class<?> annotated) {
        ExtensionContext nearestClass = null;
        for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
            if (c.getTestMethod().isPresent() || c.getTestClass().isEmpty()) {
                continue;
            }
            if (nearestClass == null) {
                nearestClass = c;
            }
            if (c.getRequiredTestClass() == annotated) {
                return c;
            }
        }
        if (nearestClass == null) {
            throw new ExtensionConfigurationException("@EmbeddedOdradek used outside a test class");
        }
        return nearestClass;
    }

    // ---------------------------------------------------------------- the annotation

    /**
     * The annotation on the test class (or a superclass, it is @Inherited), else on an enclosing class of a
     * {@code @Nested} one; the defaults when the extension was registered without it.
     */
    private static Declared declared(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        for (Class<?> c = testClass; c != null; c = isInner(c) ? c.getEnclosingClass() : null) {
            Optional<EmbeddedOdradek> found = AnnotationSupport.findAnnotation(c, EmbeddedOdradek.class);
            if (found.isPresent()) {
                return new Declared(c, settings(found.get(), c));
            }
        }
        return new Declared(testClass, DEFAULTS);
    }

    private static final Settings DEFAULTS = new Settings(1, List.of(), java.util.Map.of(), Lifecycle.PER_CLASS,
            List.of(), "");

    private static Settings settings(EmbeddedOdradek annotation, Class<?> on) {
        try {
            return Settings.of(annotation);
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException("@EmbeddedOdradek on " + on.getName() + ": " + e.getMessage(), e);
        }
    }

    private static boolean isInner(Class<?> c) {
        return c.getEnclosingClass() != null && !Modifier.isStatic(c.getModifiers());
    }

    private static boolean isEnclosing(Class<?> outer, Class<?> inner) {
        for (Class<?> c = inner; isInner(c); c = c.getEnclosingClass()) {
            if (c.getEnclosingClass() == outer) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- fields

    /**
     * PER_TEST gives each test its own broker, but a static field is one for all the class's tests: run in
     * parallel, each would overwrite it and read another test's (or a closed) broker. Refused before any starts.
     */
    private static void refuseStaticFields(Class<?> testClass) {
        List<Field> statics = injectable(testClass, true);
        if (!statics.isEmpty()) {
            throw new ExtensionConfigurationException("@EmbeddedOdradek(lifecycle = PER_TEST) starts a broker for"
                    + " each test, which a static field cannot hold (tests running in parallel would share it): make "
                    + statics.stream().map(f -> f.getDeclaringClass().getSimpleName() + "." + f.getName())
                            .collect(java.util.stream.Collectors.joining(", "))
                    + " an instance field or a test method parameter, or use Lifecycle.PER_CLASS");
        }
    }

    private static void injectStaticFields(Class<?> testClass, Odradek odradek) {
        for (Field field : injectable(testClass, true)) {
            set(field, null, odradek);
        }
    }

    private static void injectInstanceFields(Object instance, Odradek odradek) {
        for (Field field : injectable(instance.getClass(), false)) {
            set(field, instance, odradek);
        }
    }

    /** Fields of type Odradek, and String fields annotated @BootstrapServers, static or not as asked. */
    private static List<Field> injectable(Class<?> type, boolean statics) {
        return ReflectionSupport.findFields(type, field -> Modifier.isStatic(field.getModifiers()) == statics
                && (field.getType() == Odradek.class
                || (field.getType() == String.class && field.isAnnotationPresent(BootstrapServers.class))),
                HierarchyTraversalMode.TOP_DOWN);
    }

    private static void set(Field field, Object instance, Odradek odradek) {
        if (Modifier.isFinal(field.getModifiers())) {
            throw new ExtensionConfigurationException("cannot inject the embedded Odradek into final field " + field);
        }
        try {
            field.setAccessible(true);
            field.set(instance, field.getType() == Odradek.class ? odradek : odradek.bootstrapServers());
        } catch (IllegalAccessException | RuntimeException e) {
            throw new ExtensionConfigurationException("cannot inject the embedded Odradek into " + field, e);
        }
    }
}
