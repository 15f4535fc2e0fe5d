// A journey-protocol adapter (Docs/Protocol.md, version 2) in Kotlin: a second, independent
// implementation of the rules (Docs/Rules.md), with no DeepLinkCore behind it. Standard library
// and javax.crypto only, so that Debian's kotlinc 1.3 builds it without Gradle:
//   kotlinc Tests/KotlinAdapter/Adapter.kt -include-runtime -d adapter.jar
//   deeplink-bench conform exec:kotlin --exec 'kotlin=java -jar adapter.jar'

import java.io.BufferedReader
import java.io.File
import java.io.InputStreamReader
import java.io.PrintStream
import java.io.FileOutputStream
import java.io.FileDescriptor
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

// ---------------------------------------------------------------------------------------------
// The protocol's JSON: one object per line, members strings, integers, booleans, null or arrays.

object Json {
    fun parse(text: String): Map<String, Any?> {
        val reader = Reader(text)
        val value = reader.value()
        @Suppress("UNCHECKED_CAST")
        return value as Map<String, Any?>
    }

    class Reader(val text: String) {
        var i = 0
        fun space() { while (i < text.length && text[i].isWhitespace()) i++ }
        fun value(): Any? {
            space()
            val c = text[i]
            return when {
                c == '{' -> obj()
                c == '[' -> array()
                c == '"' -> string()
                text.startsWith("true", i) -> { i += 4; true }
                text.startsWith("false", i) -> { i += 5; false }
                text.startsWith("null", i) -> { i += 4; null }
                else -> number()
            }
        }
        fun obj(): Map<String, Any?> {
            val result = LinkedHashMap<String, Any?>()
            i++
            space()
            if (text[i] == '}') { i++; return result }
            while (true) {
                space()
                val key = string()
                space(); i++ // ':'
                result[key] = value()
                space()
                if (text[i] == ',') { i++; continue }
                i++ // '}'
                return result
            }
        }
        fun array(): List<Any?> {
            val result = ArrayList<Any?>()
            i++
            space()
            if (text[i] == ']') { i++; return result }
            while (true) {
                result.add(value())
                space()
                if (text[i] == ',') { i++; continue }
                i++
                return result
            }
        }
        fun number(): Long {
            val start = i
            if (text[i] == '-') i++
            while (i < text.length && text[i].isDigit()) i++
            return text.substring(start, i).toLong()
        }
        fun string(): String {
            val out = StringBuilder()
            i++
            while (true) {
                val c = text[i++]
                when (c) {
                    '"' -> return out.toString()
                    '\\' -> {
                        val e = text[i++]
                        when (e) {
                            'n' -> out.append('\n'); 't' -> out.append('\t'); 'r' -> out.append('\r')
                            'b' -> out.append('\b'); 'f' -> out.append('\u000C')
                            'u' -> { out.append(text.substring(i, i + 4).toInt(16).toChar()); i += 4 }
                            else -> out.append(e)
                        }
                    }
                    else -> out.append(c)
                }
            }
        }
    }

    fun quote(text: String): String {
        val out = StringBuilder("\"")
        for (c in text) {
            when {
                c == '"' || c == '\\' -> out.append('\\').append(c)
                c < ' ' -> out.append(String.format("\\u%04x", c.toInt()))
                else -> out.append(c)
            }
        }
        return out.append('"').toString()
    }
}

// ---------------------------------------------------------------------------------------------
// Links (Docs/Rules.md, "Links")

class Rejected(val reason: String) : Exception(reason)

const val MAX_LINK_BYTES = 512
const val MAX_REFERRER_BYTES = 4096
const val MAX_REFERRER_FIELDS = 64
val UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".toSet()
val ACCOUNT_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@+:".toSet()
val INVISIBLE = listOf(
    0x00AD..0x00AD, 0x034F..0x034F, 0x061C..0x061C, 0x115F..0x1160, 0x17B4..0x17B5, 0x180B..0x180F,
    0x200B..0x200F, 0x202A..0x202E, 0x2060..0x206F, 0x3164..0x3164, 0xFE00..0xFE0F, 0xFEFF..0xFEFF,
    0xFFA0..0xFFA0, 0xFFF0..0xFFFB, 0x1BCA0..0x1BCA3, 0x1D173..0x1D17A, 0xE0000..0xE0FFF
)

fun isHex(b: Byte) = b.toChar() in '0'..'9' || b.toChar() in 'a'..'f' || b.toChar() in 'A'..'F'

/** Valid %XX escapes decoded; everything else as it is. */
fun percentDecoded(data: ByteArray): ByteArray {
    val out = java.io.ByteArrayOutputStream()
    var i = 0
    while (i < data.size) {
        if (data[i] == '%'.toByte() && i + 2 < data.size + 0 && i + 2 <= data.size - 1 && isHex(data[i + 1]) && isHex(data[i + 2])) {
            out.write(String(data, i + 1, 2, Charsets.US_ASCII).toInt(16))
            i += 3
        } else {
            out.write(data[i].toInt())
            i++
        }
    }
    return out.toByteArray()
}

fun strictUtf8(data: ByteArray): String? {
    val decoder = Charsets.UTF_8.newDecoder()
    return try { decoder.decode(java.nio.ByteBuffer.wrap(data)).toString() } catch (e: Exception) { null }
}

fun scanContent(data: ByteArray) {
    var malformed = false
    var i = 0
    while (i < data.size) {
        if (data[i] == '%'.toByte() && !(i + 2 < data.size && isHex(data[i + 1]) && isHex(data[i + 2]))) malformed = true
        i++
    }
    val text = String(percentDecoded(data), Charsets.UTF_8)
    var control = false
    var invisible = false
    var backslash = false
    var offset = 0
    while (offset < text.length) {
        val c = text.codePointAt(offset)
        offset += Character.charCount(c)
        when {
            c < 0x20 || c == 0x7F || c in 0x80..0x9F -> control = true
            INVISIBLE.any { c in it } -> invisible = true
            c == '\\'.toInt() -> backslash = true
        }
    }
    if (control) throw Rejected("controlCharacter")
    if (invisible) throw Rejected("invisibleCharacter")
    if (backslash) throw Rejected("backslash")
    if (malformed) throw Rejected("malformedPercentEscape")
}

val ESCAPE = Regex("%[0-9A-Fa-f]{2}")

/** RFC 3986 6.2.2: escaped unreserved characters decoded, other escapes' hex uppercased. */
fun normalise(part: String): String = ESCAPE.replace(part) { match ->
    val value = match.value.substring(1).toInt(16)
    if (value < 128 && value.toChar() in UNRESERVED) value.toChar().toString() else match.value.toUpperCase()
}

/** The canonical link of a payload, or Rejected. */
fun validate(payload: ByteArray, hosts: List<String>): String {
    if (payload.isEmpty()) throw Rejected("empty")
    val whole = strictUtf8(payload) ?: throw Rejected("invalidUTF8")
    scanContent(payload)
    var rest: String
    if (whole.startsWith("/")) {
        rest = whole
    } else {
        val scheme = Regex("^([A-Za-z][A-Za-z0-9+.-]*):").find(whole) ?: throw Rejected("notAPath")
        if (scheme.groupValues[1].toLowerCase() != "https") throw Rejected("disallowedScheme")
        val after = whole.substring(scheme.value.length)
        if (!after.startsWith("//")) throw Rejected("notAPath")
        val authority = Regex("^//([^/?#]*)").find(after)!!
        var host = authority.groupValues[1]
        rest = after.substring(authority.value.length)
        if (host.contains('@')) throw Rejected("foreignHost")
        if (host.contains(':')) {
            val port = host.substringAfter(':')
            host = host.substringBefore(':')
            if (port != "" && port != "443") throw Rejected("foreignHost")
        }
        if (host.toLowerCase() !in hosts) throw Rejected("foreignHost")
        if (!rest.startsWith("/")) rest = "/$rest"
    }
    if (rest.startsWith("//") || rest.take(4).toLowerCase() == "/%2f") throw Rejected("schemeRelative")
    rest = rest.substringBefore('#')
    val hasQuery = rest.contains('?')
    val path = rest.substringBefore('?')
    val query = rest.substringAfter('?', "")
    for (segment in path.split(Regex("/|%2[Ff]"))) {
        val decoded = String(percentDecoded(segment.substringBefore(';').toByteArray()), Charsets.UTF_8)
        if (decoded == "." || decoded == "..") throw Rejected("dotSegment")
    }
    if (Regex("%(2[Ff]|3[Ff]|23|3[Bb])").containsMatchIn(path)) throw Rejected("encodedDelimiter")
    val link = normalise(path) + if (hasQuery) "?" + normalise(query) else ""
    if (link.toByteArray().size > MAX_LINK_BYTES) throw Rejected("tooLong")
    return link
}

/** Whether a canonical path lies under a prefix: at a segment boundary, ASCII case folded. */
fun under(path: String, rawPrefix: String): Boolean {
    val prefix = rawPrefix.trimEnd('/').ifEmpty { "/" }
    if (prefix == "/") return true
    if (path.length < prefix.length || !path.substring(0, prefix.length).equals(prefix, ignoreCase = true)) return false
    return path.length == prefix.length || path[prefix.length] == '/' || path[prefix.length] == ';'
}

// ---------------------------------------------------------------------------------------------
// Referrers (Docs/Rules.md, "Referrers")

sealed class Verdict {
    class Link(val link: String, val account: String?) : Verdict()
    object Organic : Verdict()
    object NotSet : Verdict()
    object None : Verdict()
}

fun formDecoded(part: ByteArray): ByteArray = percentDecoded(part.map { if (it == '+'.toByte()) ' '.toByte() else it }.toByteArray())

fun readReferrer(input: ByteArray, payloadKey: String, accountKey: String, hosts: List<String>): Verdict {
    if (input.size > MAX_REFERRER_BYTES) throw Rejected("malformedReferrer")
    var referrer = input
    val text = String(input, Charsets.ISO_8859_1)
    if (!text.contains('=') && !text.contains('&') && Regex("%(3[Dd]|26)").containsMatchIn(text)) {
        referrer = percentDecoded(input)
    }
    val fields = ArrayList<Pair<ByteArray, ByteArray>>()
    var start = 0
    for (i in 0..referrer.size) {
        if (i == referrer.size || referrer[i] == '&'.toByte()) {
            if (i > start) {
                val piece = referrer.copyOfRange(start, i)
                val equals = piece.indexOf('='.toByte())
                val name = if (equals < 0) piece else piece.copyOfRange(0, equals)
                val value = if (equals < 0) ByteArray(0) else piece.copyOfRange(equals + 1, piece.size)
                fields.add(Pair(formDecoded(name), formDecoded(value)))
            }
            start = i + 1
        }
    }
    if (fields.size > MAX_REFERRER_FIELDS) throw Rejected("malformedReferrer")
    fun named(key: String) = fields.filter { String(it.first, Charsets.UTF_8) == key }.map { it.second }
    val payloads = named(payloadKey)
    if (payloads.size > 1) throw Rejected("duplicatePayloadKey")
    if (payloads.isNotEmpty()) {
        val link = validate(payloads[0], hosts)
        val account = named(accountKey).firstOrNull()?.let { String(it, Charsets.UTF_8) }
        if (account != null && (account.isEmpty() || account.length > 64 || !account.all { it in ACCOUNT_CHARACTERS })) {
            throw Rejected("invalidAccount")
        }
        return Verdict.Link(link, account)
    }
    val source = named("utm_source").firstOrNull()?.let { String(it, Charsets.UTF_8) }
    val medium = named("utm_medium").firstOrNull()?.let { String(it, Charsets.UTF_8) }
    if (source == "google-play" && medium == "organic") return Verdict.Organic
    if (source == "(not set)" && medium == "(not set)") return Verdict.NotSet
    return Verdict.None
}

// ---------------------------------------------------------------------------------------------
// Signed links (Docs/Rules.md, "Signed links")

val SIGNED = Regex("^(.*[?&])dl_kid=([A-Za-z0-9._-]{1,32})&dl_exp=([0-9]{1,10})&dl_nonce=([0-9a-f]{16})&dl_sig=(.*)$")

/** null for a link no prefix requires signed, else its nonce; or Rejected. */
fun checkSignature(link: String, hello: Hello, now: Long): String? {
    val path = link.substringBefore('?')
    if (hello.signedPrefixes.none { under(path, it) }) return null
    if (!Regex("[?&]dl_sig=").containsMatchIn(link)) throw Rejected("missingSignature")
    val match = SIGNED.find(link) ?: throw Rejected("badSignature")
    val tag = match.groupValues[5]
    if (!Regex("[0-9a-f]{64}").matches(tag)) throw Rejected("badSignature")
    val secret = hello.keys[match.groupValues[2]] ?: throw Rejected("unknownKey")
    val mac = Mac.getInstance("HmacSHA256")
    mac.init(SecretKeySpec(secret, "HmacSHA256"))
    val computed = mac.doFinal(link.substring(0, link.lastIndexOf("&dl_sig=")).toByteArray())
        .joinToString("") { String.format("%02x", it.toInt() and 0xFF) }
    if (!java.security.MessageDigest.isEqual(computed.toByteArray(), tag.toByteArray())) throw Rejected("badSignature")
    if (now >= match.groupValues[3].toLong()) throw Rejected("expiredSignature")
    return match.groupValues[4]
}

// ---------------------------------------------------------------------------------------------
// The app

class Hello(val message: Map<String, Any?>) {
    @Suppress("UNCHECKED_CAST")
    fun strings(key: String) = (message[key] as List<String>?) ?: emptyList()
    val kill = message["kill"] as String
    val ttl = message["ttlSeconds"] as Long
    val hosts = strings("hosts").map { it.toLowerCase() }
    val payloadKey = message["payloadKey"] as String
    val accountKey = (message["accountKey"] as String?) ?: "account"
    val gate = strings("gate").map { it.split(" ") }
    val gateDefault = strings("gateDefault").toSet()
    val signedPrefixes = strings("signedPrefixes")
    val keys = strings("signingKeys").associate { entry ->
        val hex = entry.substringAfter(':')
        entry.substringBefore(':') to ByteArray(hex.length / 2) { hex.substring(2 * it, 2 * it + 2).toInt(16).toByte() }
    }
    val version = minOf(2L, (message["maxProtocol"] as Long?) ?: 1L)
}

/** A pending link: what the container keeps of it. */
data class Record(
    val link: String, val source: String, val captured: Long, val id: String, val install: Long?,
    val arrival: Long, val account: String?, val nonce: String?
) {
    fun line() = listOf(link, source, captured, id, install ?: "", arrival, account ?: "", nonce ?: "").joinToString("\t")

    companion object {
        fun of(line: String): Record {
            val f = line.split("\t")
            return Record(f[0], f[1], f[2].toLong(), f[3], f[4].toLongOrNull(), f[5].toLong(),
                f[6].ifEmpty { null }, f[7].ifEmpty { null })
        }
    }
}

/** The App Group container / SharedPreferences: pending handoffs and consumed marks. */
class Container(directory: String, val durable: Boolean) {
    val dir = File(directory)
    val file = File(dir, "container.tsv")
    val pending = ArrayList<Record>()
    val consumed = LinkedHashSet<String>()

    init {
        if (durable && file.exists()) {
            for (line in file.readLines()) {
                if (line.startsWith("C\t")) consumed.add(line.substring(2)) else if (line.startsWith("P\t")) pending.add(Record.of(line.substring(2)))
            }
        }
    }

    fun save() {
        if (!durable) return
        dir.mkdirs()
        val temporary = File(dir, "container.tsv.tmp")
        FileOutputStream(temporary).use { out ->
            val text = StringBuilder()
            for (record in pending) text.append("P\t").append(record.line()).append('\n')
            for (mark in consumed) text.append("C\t").append(mark).append('\n')
            out.write(text.toString().toByteArray())
            out.fd.sync()
        }
        temporary.renameTo(file)
    }

    fun wipe() {
        pending.clear()
        consumed.clear()
        if (durable) file.delete()
    }
}

class App(val out: PrintStream) {
    lateinit var hello: Hello
    var journey = 0L
    var declines = false
    lateinit var container: Container
    var running = false
    var ready = false
    var loggedIn = false
    var account: String? = null
    var crashArmed = false
    val pending = ArrayList<Record>()

    fun answer(members: String) = out.print("{$members,\"journey\":$journey}\n")
    fun drop(reason: String) = answer("\"type\":\"drop\",\"reason\":\"$reason\"")
    fun reject(rejection: String) = answer("\"type\":\"drop\",\"reason\":\"rejected\",\"rejection\":\"$rejection\"")

    fun die() {
        running = false; ready = false; loggedIn = false; account = null; crashArmed = false
        pending.clear()
    }

    fun consumed(record: Record) =
        record.id in container.consumed || (record.install != null && "install:${record.install}" in container.consumed)

    fun sameCapture(a: Record, b: Record) = a.id == b.id || (a.install != null && a.install == b.install)

    fun requirements(record: Record): Set<String> {
        val path = record.link.substringBefore('?')
        val rule = hello.gate.filter { under(path, it[0]) }.maxBy { it[0].trimEnd('/').length }
        val needs = HashSet(rule?.drop(1) ?: hello.gateDefault)
        if (record.account != null) needs.add("loggedIn")
        return needs
    }

    fun gateOpen(record: Record): Boolean {
        if ("loggedIn" in requirements(record) && !loggedIn) return false
        return record.account == null || record.account == account
    }

    fun forget(record: Record) {
        pending.remove(record)
        container.pending.remove(record)
    }

    fun marks(record: Record) = listOfNotNull(record.id, record.install?.let { "install:$it" }, record.nonce?.let { "nonce:$it" })

    fun capture(record: Record, seq: Long, time: Long) {
        if (consumed(record) || pending.any { sameCapture(record, it) }) return
        pending.add(record)
        decide(seq, time)
    }

    fun decide(seq: Long, time: Long) {
        if (!running) return
        for (record in ArrayList(pending)) {
            if (maxOf(0L, time - record.captured) > hello.ttl) {
                forget(record)
                drop("expired")
            }
        }
        container.save()
        while (ready && pending.isNotEmpty()) {
            val newest = pending.maxWith(compareBy<Record>({ it.captured }, { it.arrival }))!!
            if (!gateOpen(newest)) return
            for (older in pending.filter { it !== newest }) {
                forget(older)
                container.consumed.addAll(marks(older))
                drop("superseded")
            }
            forget(newest)
            container.consumed.addAll(marks(newest))
            container.save()
            if (crashArmed) {
                drop("crashWindow")
                die()
                return
            }
            answer("\"type\":\"route\",\"seq\":$seq,\"link\":${Json.quote(newest.link)}")
            if (!declines) return
            // The router answered notReady: pending again, offered again within this step.
            declines = false
            container.consumed.removeAll(marks(newest))
            pending.add(newest)
            if (newest.source != "universalLink") container.pending.add(newest)
            container.save()
        }
    }

    /** The nonce of a verified signed link (null when unsigned), or Rejected. */
    fun authenticate(link: String, now: Long, redelivery: Boolean = false): String? {
        val nonce = checkSignature(link, hello, now)
        if (nonce != null && !redelivery && "nonce:$nonce" in container.consumed) throw Rejected("replayed")
        return nonce
    }

    fun handle(message: Map<String, Any?>) {
        val type = message["type"] as String?
        val seq = (message["seq"] as Long?) ?: 0L
        val time = (message["time"] as Long?) ?: 0L
        when (type) {
            "hello" -> {
                hello = Hello(message)
                out.print("{\"type\":\"hello\",\"protocol\":${hello.version},\"name\":\"rules adapter (Kotlin)\"," +
                    "\"reasons\":[\"rejected\",\"expired\",\"superseded\",\"organic\",\"notSet\",\"crashWindow\"]}\n")
                out.flush()
            }
            "journey" -> {
                journey = message["journey"] as Long
                declines = message["routerNotReady"] == true
                container = Container(message["stateDir"] as String, hello.kill == "signal")
                die()
            }
            "end" -> {
                answer("\"type\":\"done\"")
                out.flush()
            }
            "clipLaunch" -> try {
                val link = validate((message["url"] as String).toByteArray(), hello.hosts)
                val nonce = authenticate(link, time)
                container.pending.add(Record(link, "clip", time, nonce?.let { "nonce:$it" } ?: "clip:$time", null, time, null, nonce))
                container.save()
            } catch (rejection: Rejected) {
                reject(rejection.reason)
            }
            "launch" -> {
                die()
                running = true
                for (record in container.pending) if (!consumed(record)) pending.add(record)
                decide(seq, time)
            }
            "referrer" -> {
                val referrer = message["referrer"] as String?
                if (!running || message["result"] != "OK" || referrer == null) return
                val install = message["installBeginTime"] as Long
                try {
                    val verdict = readReferrer(referrer.toByteArray(), hello.payloadKey, hello.accountKey, hello.hosts)
                    when (verdict) {
                        is Verdict.Organic -> drop("organic")
                        is Verdict.NotSet -> drop("notSet")
                        is Verdict.None -> {}
                        is Verdict.Link -> {
                            val nonce = authenticate(verdict.link, time, "install:$install" in container.consumed)
                            val record = Record(verdict.link, "referrer", message["clickTime"] as Long,
                                "referrer:$install:$seq", install, time * 64 + seq, verdict.account, nonce)
                            if (consumed(record) || pending.any { sameCapture(record, it) }) return
                            if (container.pending.none { sameCapture(record, it) }) container.pending.add(record)
                            capture(record, seq, time)
                        }
                    }
                } catch (rejection: Rejected) {
                    reject(rejection.reason)
                }
            }
            "universalLink" -> {
                if (!running) return
                try {
                    val link = validate((message["url"] as String).toByteArray(), hello.hosts)
                    val nonce = authenticate(link, time)
                    val id = nonce?.let { "nonce:$it" } ?: "universal:$time:$seq"
                    capture(Record(link, "universalLink", time, id, null, time * 64 + seq, null, nonce), seq, time)
                } catch (rejection: Rejected) {
                    reject(rejection.reason)
                }
            }
            "appReady" -> if (running) { ready = true; decide(seq, time) }
            "loggedIn" -> if (running) { loggedIn = true; account = message["account"] as String?; decide(seq, time) }
            "loggedOut" -> if (running) { loggedIn = false; account = null }
            "clock" -> decide(seq, time)
            "kill" -> die()
            "appDeleted" -> { die(); container.wipe() }
            "clipDataPurged" -> container.wipe()
            "crashArmed" -> crashArmed = true
        }
    }
}

fun main() {
    val input = BufferedReader(InputStreamReader(System.`in`, Charsets.UTF_8))
    val out = PrintStream(FileOutputStream(FileDescriptor.out), false, "UTF-8")
    val app = App(out)
    while (true) {
        val line = input.readLine() ?: break
        app.handle(Json.parse(line))
    }
    out.flush()
}
