package dev.baton.system;

/** Where the test servers and the provider simulator listen; system-tests/pom.xml sets the values. */
final class Ports {

    private Ports() {
    }

    /**
     * The provider simulator's port. The server JVMs point the sample's connections at it and carry the same system
     * property, so this also answers inside the server. 8089 (the sample's own) only when run outside Maven.
     */
    static int simulator() {
        return Integer.getInteger("system-tests.simulator-port", 8089);
    }
}
