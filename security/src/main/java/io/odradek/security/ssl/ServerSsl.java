package io.odradek.security.ssl;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslHandler;
import io.odradek.security.KafkaPrincipal;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.security.auth.x500.X500Principal;

/**
 * TLS for one listener: a handler per new connection from the current context, the principal of a connection from
 * its client certificate ({@code ssl.principal.mapping.rules}), and reloads when the keystore or truststore file
 * changes on disk (polled; new connections get the new context, open ones keep theirs).
 *
 * <p>A reload is checked as Kafka checks a dynamic keystore update: unless {@code ssl.allow.dn.changes} /
 * {@code ssl.allow.san.changes}, the new keystore's certificates must keep their subject names and subject
 * alternative names. A changed file that cannot be used (half written, wrong password, other names) is logged once
 * and the current context stays; it is tried again when the file changes again.
 */
public final class ServerSsl implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ServerSsl.class.getName());
    /** One daemon thread polls every listener's files; a check is a few stat calls. */
    private static final ScheduledExecutorService WATCHER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "odradek-ssl-store-watcher");
        t.setDaemon(true);
        return t;
    });

    private final String listenerName;
    private volatile SslSettings settings;
    private final SslPrincipalMapper mapper;
    private volatile SslContexts.Server current;
    /** The files' modification times last looked at (full precision), so a failed change is tried once. */
    private final Map<Path, FileTime> seen = new LinkedHashMap<>();
    private ScheduledFuture<?> poll;
    private long reloadIntervalMs;
    private boolean closed;
    private volatile int reloads;

    private ServerSsl(String listenerName, SslSettings settings, SslPrincipalMapper mapper,
            SslContexts.Server context) {
        this.listenerName = listenerName;
        this.settings = settings;
        this.mapper = mapper;
        this.current = context;
        for (Path file : files(context)) {
            seen.put(file, modifiedTime(file));
        }
    }

    /**
     * The TLS of listener {@code listenerName}; when {@code reloadIntervalMs} is positive its store files are checked
     * that often. SslConfigException for keys that cannot make a context or a mapper.
     */
    public static ServerSsl create(String listenerName, SslSettings settings, long reloadIntervalMs) {
        SslPrincipalMapper mapper;
        try {
            mapper = SslPrincipalMapper.fromRules(settings.principalMappingRules());
        } catch (IllegalArgumentException e) {
            throw SslConfigException.invalid("ssl.principal.mapping.rules", settings.principalMappingRules(),
                    e.getMessage());
        }
        ServerSsl ssl = new ServerSsl(listenerName, settings, mapper, SslContexts.server(settings));
        LOG.log(System.Logger.Level.INFO, "Listener " + listenerName + ": TLS by " + ssl.engine() + ", client auth "
                + settings.clientAuth().name().toLowerCase(java.util.Locale.ROOT) + ", keystore " + ssl.current.keystore()
                + ", truststore " + (ssl.current.truststore() == null ? "the JDK's default CAs" : ssl.current.truststore()));
        ssl.reloadIntervalMs = reloadIntervalMs;
        ssl.startPolling();
        return ssl;
    }

    /**
     * The TLS stage of a newly accepted connection, from the current context. On the JDK engine it closes the
     * connection when the client renegotiates (OpenSSL refuses that itself, with its own faster handler).
     */
    public SslHandler newHandler(ByteBufAllocator alloc) {
        SslContexts.Server context = current;
        if (context.context() instanceof JdkSslContext) {
            return new RenegotiationRefusingSslHandler(context.context().newEngine(alloc));
        }
        return context.context().newHandler(alloc);
    }

    /**
     * Who the client of a completed handshake is: {@code User:<mapped DN>} with a client certificate, ANONYMOUS
     * without one; {@link SslPrincipalMapper.NoMatchingRuleException} when no mapping rule applies (refuse the client).
     */
    public KafkaPrincipal principal(SSLSession session) {
        Principal peer;
        try {
            peer = session.getPeerPrincipal();
        } catch (SSLPeerUnverifiedException e) {
            return KafkaPrincipal.ANONYMOUS;
        }
        if (peer instanceof X500Principal x500) {
            return KafkaPrincipal.user(mapper.name(x500.getName()));
        }
        return KafkaPrincipal.user(peer.getName());
    }

    /** What serves connections: "OpenSSL (BoringSSL)" or "JDK (SunJSSE)". */
    public String engine() {
        return current.engine();
    }

    public SslSettings settings() {
        return settings;
    }

    /** The current keystore (tests: what a reload picked up). */
    public KeyStore keystore() {
        return current.keystore().keyStore();
    }

    /** How many times a changed store was reloaded and put in use. */
    public int reloads() {
        return reloads;
    }

    /**
     * Rebuilds the context if a store file changed since it was last looked at; true when the new one is in use.
     * Called by the poll; callable directly (tests, a dynamic config change).
     */
    public synchronized boolean reloadIfChanged() {
        SslContexts.Server old = current;
        boolean changed = false;
        for (Path file : files(old)) {
            FileTime now = modifiedTime(file);
            if (now != null && !now.equals(seen.get(file))) {
                seen.put(file, now);
                changed = true;
            }
        }
        if (!changed) {
            return false;
        }
        try {
            SslContexts.Server next = SslContexts.server(settings);
            ensureCompatible(next.keystore().keyStore(), old.keystore().keyStore(), settings.allowDnChanges(),
                    settings.allowSanChanges());
            current = next;
            reloads++;
            LOG.log(System.Logger.Level.INFO, "Listener " + listenerName + ": reloaded TLS keystore "
                    + next.keystore() + " and truststore " + next.truststore() + "; new connections use them");
            return true;
        } catch (SslConfigException | GeneralSecurityException e) {
            LOG.log(System.Logger.Level.WARNING, "Listener " + listenerName + ": keeping the current TLS context, "
                    + "the changed keystore or truststore cannot be used: " + e.getMessage());
            return false;
        }
    }

    /**
     * New keys for this listener (a dynamic config change, e.g. {@code listener.name.ssl.ssl.keystore.location}):
     * a context built from them replaces the current one for new connections, under the same checks as a reload;
     * false (logged, the current one kept) when they cannot be used or did not change.
     */
    public synchronized boolean reconfigure(SslSettings next) {
        if (next.equals(settings)) {
            return false;
        }
        SslContexts.Server old = current;
        try {
            SslContexts.Server built = SslContexts.server(next);
            ensureCompatible(built.keystore().keyStore(), old.keystore().keyStore(), next.allowDnChanges(),
                    next.allowSanChanges());
            current = built;
            settings = next;
            seen.clear();
            for (Path file : files(built)) {
                seen.put(file, modifiedTime(file));
            }
            reloads++;
            startPolling(); // the new stores may be files where the old were inline PEM
            LOG.log(System.Logger.Level.INFO, "Listener " + listenerName + ": new TLS settings " + next
                    + "; new connections use them");
            return true;
        } catch (SslConfigException | GeneralSecurityException e) {
            LOG.log(System.Logger.Level.WARNING, "Listener " + listenerName + ": keeping the current TLS context, "
                    + "the new ssl settings cannot be used: " + e.getMessage());
            return false;
        }
    }

    /**
     * Whether {@link #reconfigure} would take {@code next} (Kafka's SslFactory.validateReconfiguration): builds its
     * context and checks it against the current keystore; SslConfigException saying why not. Changes nothing.
     */
    public void validateReconfiguration(SslSettings next) {
        if (next.equals(settings)) {
            return;
        }
        SslContexts.Server old = current;
        SslContexts.Server built = SslContexts.server(next);
        try {
            ensureCompatible(built.keystore().keyStore(), old.keystore().keyStore(), next.allowDnChanges(),
                    next.allowSanChanges());
        } catch (GeneralSecurityException e) {
            throw new SslConfigException("Cannot read the new keystore's certificates", e);
        }
    }

    private synchronized void startPolling() {
        if (!closed && poll == null && reloadIntervalMs > 0 && !seen.isEmpty()) {
            poll = WATCHER.scheduleWithFixedDelay(new Poll(this), reloadIntervalMs, reloadIntervalMs,
                    TimeUnit.MILLISECONDS);
        }
    }

    /** Stops polling the files. */
    @Override
    public synchronized void close() {
        closed = true;
        if (poll != null) {
            poll.cancel(false);
            poll = null;
        }
    }

    private static List<Path> files(SslContexts.Server context) {
        List<Path> files = new ArrayList<>(2);
        if (context.keystore().file() != null) {
            files.add(context.keystore().file());
        }
        if (context.truststore() != null && context.truststore().file() != null) {
            files.add(context.truststore().file());
        }
        return files;
    }

    private static FileTime modifiedTime(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (java.io.IOException e) {
            return null; // being replaced: look again next time
        }
    }

    /** The poll holds the listener weakly: a listener dropped without close() stops being polled. */
    private static final class Poll implements Runnable {
        private final WeakReference<ServerSsl> ssl;

        Poll(ServerSsl ssl) {
            this.ssl = new WeakReference<>(ssl);
        }

        @Override
        public void run() {
            ServerSsl target = ssl.get();
            if (target == null) {
                throw new IllegalStateException("listener gone"); // ends this periodic task
            }
            try {
                target.reloadIfChanged();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "TLS store check failed", e);
            }
        }
    }

    // ---- Kafka's keystore update checks (SslFactory.CertificateEntries)

    static void ensureCompatible(KeyStore next, KeyStore old, boolean allowDnChanges, boolean allowSanChanges)
            throws GeneralSecurityException {
        List<Entry> nextEntries = Entry.of(next);
        List<Entry> oldEntries = Entry.of(old);
        if ((!allowDnChanges || !allowSanChanges) && nextEntries.size() != oldEntries.size()) {
            throw new SslConfigException(String.format("Keystore entries do not match, existing store contains %d "
                    + "entries, new store contains %d entries", oldEntries.size(), nextEntries.size()));
        }
        for (int i = 0; i < nextEntries.size() && i < oldEntries.size(); i++) {
            Entry n = nextEntries.get(i);
            Entry o = oldEntries.get(i);
            if (!allowDnChanges && !Objects.equals(n.subject, o.subject)
                    && !n.subject.getName().equalsIgnoreCase(o.subject.getName())) {
                throw new SslConfigException(String.format("Keystore DistinguishedName does not match: "
                        + " existing={alias=%s, DN=%s}, new={alias=%s, DN=%s}", o.alias, o.subject, n.alias, n.subject));
            }
            if (!allowSanChanges && !n.altNames.containsAll(o.altNames)) {
                throw new SslConfigException(String.format("Keystore SubjectAltNames do not match: "
                        + " existing={alias=%s, SAN=%s}, new={alias=%s, SAN=%s}", o.alias, o.altNames, n.alias, n.altNames));
            }
        }
    }

    private record Entry(String alias, X500Principal subject, Set<List<?>> altNames) {
        static List<Entry> of(KeyStore store) throws GeneralSecurityException {
            List<Entry> entries = new ArrayList<>();
            Enumeration<String> aliases = store.aliases();
            while (aliases.hasMoreElements()) {
                String alias = aliases.nextElement();
                Certificate cert = store.getCertificate(alias);
                if (cert instanceof X509Certificate x509) {
                    Collection<List<?>> names = x509.getSubjectAlternativeNames();
                    entries.add(new Entry(alias, x509.getSubjectX500Principal(),
                            names == null ? Collections.emptySet() : new HashSet<>(names)));
                }
            }
            return entries;
        }
    }
}
