// A Paysign client in Java 17, with no dependencies: run it with `java Client.java`.
//
// Checks its signing against libs/signing/vectors.json, then lists banks, runs
// an account enquiry, creates a payin of 1500.50 and reads it back.
// Configuration: PAYSIGN_BASE_URL, PAYSIGN_API_KEY, PAYSIGN_SECRET_KEY,
// PAYSIGN_MERCHANT_ID, PAYSIGN_TENANT_ID, and PAYSIGN_VECTORS (default: the
// repository's vectors).
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.*;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class Client {
    /** A JSON number as written: Java has no JSON parser, and a double would turn 1500.50 into 1500.5. */
    record Lexeme(String text) {}

    /** A small JSON reader: objects keep their order, numbers stay lexemes. Enough for vectors.json and for signing. */
    static final class Json {
        private final String s;
        private int i;
        Json(String s) { this.s = s; }
        static Object parse(String s) { Json j = new Json(s); Object v = j.value(); j.ws(); if (j.i != s.length()) throw j.fail("trailing text"); return v; }
        private void ws() { while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++; }
        private IllegalArgumentException fail(String what) { return new IllegalArgumentException("invalid JSON: " + what + " at " + i); }
        private Object value() {
            ws();
            if (i >= s.length()) throw fail("end of text");
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> o = new LinkedHashMap<>(); i++; ws();
                if (s.charAt(i) == '}') { i++; return o; }
                while (true) {
                    ws(); String k = string(); ws();
                    if (s.charAt(i++) != ':') throw fail("expected :");
                    if (o.containsKey(k)) throw fail("duplicate key " + k);
                    o.put(k, value()); ws();
                    char d = s.charAt(i++);
                    if (d == '}') return o;
                    if (d != ',') throw fail("expected , or }");
                }
            }
            if (c == '[') {
                List<Object> a = new ArrayList<>(); i++; ws();
                if (s.charAt(i) == ']') { i++; return a; }
                while (true) { a.add(value()); ws(); char d = s.charAt(i++); if (d == ']') return a; if (d != ',') throw fail("expected , or ]"); }
            }
            if (c == '"') return string();
            for (String literal : new String[] {"true", "false", "null"}) if (s.startsWith(literal, i)) { i += literal.length(); return literal.equals("null") ? null : Boolean.valueOf(literal); }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            if (start == i) throw fail("unexpected character");
            return new Lexeme(s.substring(start, i));
        }
        private String string() {
            if (s.charAt(i++) != '"') throw fail("expected a string");
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') return b.toString();
                if (c != '\\') { b.append(c); continue; }
                char e = s.charAt(i++);
                switch (e) {
                    case 'b' -> b.append('\b'); case 'f' -> b.append('\f'); case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r'); case 't' -> b.append('\t');
                    case 'u' -> { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; } // surrogate pairs stay pairs
                    default -> b.append(e); // " \ /
                }
            }
        }
    }

    /** docs/protocol.md section 2: flat object, nulls left out, keys by UTF-16 unit (String.compareTo), values as sent. */
    static String canonicalBody(String body) {
        if (body == null || body.isEmpty()) return "";
        if (!(Json.parse(body) instanceof Map<?, ?> fields)) throw new IllegalArgumentException("BODY_NOT_OBJECT");
        TreeMap<String, String> sorted = new TreeMap<>();
        for (var field : fields.entrySet()) {
            Object v = field.getValue();
            if (v == null) continue;
            if (v instanceof Map || v instanceof List) throw new IllegalArgumentException("NESTED_VALUE");
            sorted.put((String) field.getKey(), v instanceof Lexeme n ? n.text() : v.toString());
        }
        StringJoiner joined = new StringJoiner("&");
        sorted.forEach((k, v) -> joined.add(k + "=" + v));
        return joined.toString();
    }

    static String hex(byte[] bytes) { StringBuilder b = new StringBuilder(); for (byte x : bytes) b.append(String.format("%02x", x)); return b.toString(); }

    static Map<String, String> sign(String apiKey, String secret, String nonce, long timestamp, String method, String path, String body) throws Exception {
        String canonical = canonicalBody(body);
        String bodyHash = hex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        String base = String.join("\n", apiKey, nonce, Long.toString(timestamp), method, path, bodyHash);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String signature = hex(mac.doFinal(base.getBytes(StandardCharsets.UTF_8)));
        return Map.of("canonicalBody", canonical, "bodySha256Hex", bodyHash, "baseString", base, "signature", signature);
    }

    static void checkVectors(Path file) throws Exception {
        @SuppressWarnings("unchecked")
        var vectors = (List<Map<String, Object>>) ((Map<String, Object>) Json.parse(Files.readString(file))).get("vectors");
        for (var v : vectors) {
            @SuppressWarnings("unchecked") var r = (Map<String, Object>) v.get("request");
            var got = sign((String) r.get("apiKey"), (String) r.get("secretKey"), (String) r.get("nonce"), Long.parseLong(((Lexeme) r.get("timestamp")).text()),
                (String) r.get("method"), (String) r.get("path"), (String) r.get("body"));
            if (!got.equals(v.get("want"))) throw new IllegalStateException("vector " + v.get("name") + " does not match: fix the signing before calling the service");
        }
        System.out.println("signing matches all " + vectors.size() + " vectors");
    }

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @SuppressWarnings("unchecked")
    static Map<String, Object> call(String method, String path, String body) throws Exception {
        var env = System.getenv();
        String nonce = UUID.randomUUID().toString();
        long timestamp = System.currentTimeMillis() / 1000;
        var signed = sign(env.get("PAYSIGN_API_KEY"), env.get("PAYSIGN_SECRET_KEY"), nonce, timestamp, method, path, body); // the exact bytes sent
        var request = HttpRequest.newBuilder(URI.create(env.get("PAYSIGN_BASE_URL").replaceAll("/+$", "") + path)).timeout(Duration.ofSeconds(15))
            .header("X-API-KEY", env.get("PAYSIGN_API_KEY")).header("X-Nonce", nonce).header("X-Timestamp", Long.toString(timestamp))
            .header("X-Signature", signed.get("signature")).header("X-Merchant-ID", env.get("PAYSIGN_MERCHANT_ID")).header("X-Tenant-ID", env.get("PAYSIGN_TENANT_ID"));
        if (body != null) request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        else request.method(method, HttpRequest.BodyPublishers.noBody());
        var response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (response.statusCode() / 100 != 2) throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
        Object parsed = Json.parse(response.body());
        return parsed instanceof Map ? (Map<String, Object>) parsed : Map.of("items", parsed);
    }

    public static void main(String[] args) throws Exception {
        String vectors = System.getenv().getOrDefault("PAYSIGN_VECTORS", "../../libs/signing/vectors.json");
        checkVectors(Path.of(vectors));
        System.out.println(((List<?>) call("GET", "/payment/merchant-api/banks", null).get("items")).size() + " banks");
        System.out.println("account name: " + call("POST", "/payment/merchant-api/account/inquiry", "{\"bankCode\":\"058\",\"accountNumber\":\"0123456785\"}").get("accountName"));
        String reference = "java-" + UUID.randomUUID().toString().substring(0, 12);
        call("POST", "/payment/api/payins", "{\"amount\":1500.50,\"currency\":\"NGN\",\"customerEmail\":\"ada@example.com\",\"reference\":\"" + reference + "\"}");
        var read = call("GET", "/payment/api/payins/" + reference, null);
        if (!"1500.5".equals(((Lexeme) read.get("amount")).text()) || !"PENDING".equals(read.get("status"))) throw new IllegalStateException("the payin read back differs: " + read);
        System.out.println("payin " + reference + ": " + read.get("status") + ", " + ((Lexeme) read.get("amount")).text() + " " + read.get("currency") + ", pay at " + read.get("checkoutUrl"));
    }
}
