package io.odradek.security.acl;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An ACL host given as a CIDR block ({@code 10.0.0.0/8}, {@code fd00::/8}), which Kafka 4.4's StandardAuthorizer
 * matches a client address against (CidrUtils: an IPv4 block when the text has no ':', IPv6 otherwise; every
 * address of the block counts, network and broadcast included). Addresses are parsed as literals only, so no
 * name is ever looked up.
 */
public final class CidrRange {
    private final byte[] network;
    private final int prefixLength;

    private CidrRange(byte[] network, int prefixLength) {
        this.network = network;
        this.prefixLength = prefixLength;
    }

    /** Whether an ACL host is written as a CIDR block (Kafka: it contains '/'). */
    public static boolean isCidr(String host) {
        return host != null && host.indexOf('/') >= 0;
    }

    /** The block {@code text} names; IllegalArgumentException (with commons-net's wording) when it is not one. */
    public static CidrRange parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0 || slash != text.lastIndexOf('/')) {
            throw new IllegalArgumentException("Could not parse [" + text + "]");
        }
        String address = text.substring(0, slash);
        String bits = text.substring(slash + 1);
        boolean ipv6 = text.indexOf(':') >= 0;
        byte[] bytes = ipv6 ? ipv6Literal(address) : ipv4Literal(address, text);
        if (bytes == null || bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("Could not parse [" + text + "]");
        }
        int prefix = Integer.parseInt(bits);
        int max = bytes.length * 8;
        if (prefix > max) {
            throw new IllegalArgumentException("Value [" + prefix + "] not in range [0," + max + "]");
        }
        byte[] network = bytes.clone();
        mask(network, prefix);
        return new CidrRange(network, prefix);
    }

    /** Whether the client address (an IP literal, as InetAddress.getHostAddress gives it) lies in this block. */
    public boolean contains(String clientAddress) {
        byte[] bytes = clientAddress.indexOf(':') >= 0 ? ipv6Literal(clientAddress) : ipv4Literal(clientAddress, null);
        if (bytes == null || bytes.length != network.length) {
            return false; // Kafka: an IPv4 address never lies in an IPv6 block, nor the other way round
        }
        mask(bytes, prefixLength);
        return Arrays.equals(bytes, network);
    }

    private static void mask(byte[] bytes, int prefix) {
        for (int i = 0; i < bytes.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - i * 8));
            bytes[i] &= (byte) (0xff << (8 - keep));
        }
    }

    /** Four dotted decimals 0-255, else null (or, when {@code whole} is given, the range error for it). */
    private static byte[] ipv4Literal(String s, String whole) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                if (whole != null) {
                    throw new IllegalArgumentException("Value [" + v + "] not in range [0,255]");
                }
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    /** A 16-byte IPv6 address (an IPv4-mapped one stays 16 bytes), else null; never a name lookup. */
    private static byte[] ipv6Literal(String s) {
        int zone = s.indexOf('%');
        String literal = zone >= 0 ? s.substring(0, zone) : s;
        if (literal.isEmpty() || !literal.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
            return null; // only hex digits, ':' and '.': InetAddress then parses a literal and never resolves
        }
        try {
            byte[] bytes = InetAddress.getByName(literal).getAddress();
            if (bytes.length == 4) { // ::ffff:a.b.c.d comes back as IPv4: keep it in the IPv6 space
                byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xff;
                mapped[11] = (byte) 0xff;
                System.arraycopy(bytes, 0, mapped, 12, 4);
                return mapped;
            }
            return bytes;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
