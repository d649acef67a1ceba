package org.example.echo;

import dev.baton.spi.AdapterContext;
import dev.baton.spi.ConnectionKey;
import dev.baton.spi.ProviderAdapter;
import dev.baton.spi.ProviderAdapterFactory;

import java.util.Set;

/**
 * Provider {@code echo}: an upstream that answers with the caller's last message ({@link EchoServer} is one).
 * Reads one key of its own, {@code baton.connections.<name>.echo-prefix}, which the upstream puts before the echo.
 */
public final class EchoAdapterFactory implements ProviderAdapterFactory {

    public static final String ID = "echo";
    /** The setting the adapter sends as {@code prefix}. */
    static final String PREFIX = "echo-prefix";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<ConnectionKey> connectionKeys() {
        return Set.of(ConnectionKey.optional(PREFIX).withFormat("[A-Za-z0-9 :>-]{1,20}",
                "a prefix of 1 to 20 letters, digits, spaces or ':', '>', '-'"));
    }

    @Override
    public ProviderAdapter create(AdapterContext context) {
        return new EchoAdapter(context);
    }
}
