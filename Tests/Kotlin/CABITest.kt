// The C ABI (Sources/DeepLinkC/include/deeplink.h) from Kotlin through JNA, as an Android app embeds
// the core: a referrer captured, the login signalled, exactly one route received, and a forged
// signed link refused through every capture function (the app's own HMAC-SHA256, javax.crypto,
// checks the tags through the authenticator callback). The tested form of Docs/Adapters.md's JNI
// skeleton.
//
// Usage: java -cp CABITest.jar:jna.jar CABITestKt path/to/libDeepLinkC.so
// (exit 0: every check passed; 1: a check failed; Tests/Kotlin/run.sh builds and runs it).
import com.sun.jna.Callback
import com.sun.jna.Library
import com.sun.jna.Native
import com.sun.jna.Pointer
import com.sun.jna.ptr.IntByReference
import java.net.URLEncoder
import java.security.MessageDigest
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec
import kotlin.system.exitProcess

const val DL_OK = 0
const val DL_REJECTED = 1
const val DL_EVENT_APP_READY = 0
const val DL_EVENT_LOGGED_IN = 1
const val DL_SOURCE_UNIVERSAL_LINK = 2

/** deeplink.h: `size_t` is 64 bits on the LP64 platforms Android and Linux run on. */
interface DeepLinkC : Library {
    interface RouteCallback : Callback {
        fun invoke(context: Pointer?, link: Pointer?, length: Long, source: Int): Int
    }

    interface AuthenticateCallback : Callback {
        fun invoke(
            context: Pointer?, tag: Pointer?, tagLength: Long, message: Pointer?, messageLength: Long,
            keyID: Pointer?, keyIDLength: Long
        ): Int
    }

    fun dl_resolver_create_signed(
        allowedHosts: ByteArray, allowedHostsLength: Long, loginPrefixes: ByteArray, loginPrefixesLength: Long,
        storeDirectory: String?, accountKey: String?, signedPrefixes: ByteArray, signedPrefixesLength: Long,
        authenticate: AuthenticateCallback, authenticateContext: Pointer?, callback: RouteCallback,
        context: Pointer?, error: IntByReference
    ): Pointer?

    fun dl_resolver_capture_referrer(
        resolver: Pointer, referrer: ByteArray, length: Long, id: Long, installBegin: Long, click: Long
    ): Int

    fun dl_resolver_capture_link(resolver: Pointer, link: ByteArray, length: Long, source: Int, id: Long): Int
    fun dl_resolver_signal(resolver: Pointer, event: Int): Int
    fun dl_resolver_destroy(resolver: Pointer)
}

/** The app's signing key: the id its links name, and the secret its server signs with. */
object Keys {
    const val ID = "k2"
    val secret = ByteArray(32) { 0x6D }

    fun tag(message: ByteArray): ByteArray {
        val mac = Mac.getInstance("HmacSHA256")
        mac.init(SecretKeySpec(secret, "HmacSHA256"))
        return mac.doFinal(message)
    }

    /** `path` signed as the server would: key id, expiry, nonce, then the tag over all of it. */
    fun sign(path: String, nonce: Long): String {
        val message = "$path&dl_kid=$ID&dl_exp=4102444800&dl_nonce=" + String.format("%016x", nonce)
        val hex = tag(message.toByteArray()).joinToString("") { String.format("%02x", it) }
        return "$message&dl_sig=$hex"
    }
}

/** The app's authenticator: its own HMAC-SHA256, compared in constant time. */
class Authenticator : DeepLinkC.AuthenticateCallback {
    override fun invoke(
        context: Pointer?, tag: Pointer?, tagLength: Long, message: Pointer?, messageLength: Long,
        keyID: Pointer?, keyIDLength: Long
    ): Int {
        val id = String(keyID?.getByteArray(0, keyIDLength.toInt()) ?: ByteArray(0))
        if (id != Keys.ID) return -1
        val expected = Keys.tag(message?.getByteArray(0, messageLength.toInt()) ?: ByteArray(0))
        val given = tag?.getByteArray(0, tagLength.toInt()) ?: ByteArray(0)
        return if (MessageDigest.isEqual(expected, given)) 1 else 0
    }
}

/** The app's router: records every link it handles. */
class Router : DeepLinkC.RouteCallback {
    val routes = mutableListOf<String>()

    override fun invoke(context: Pointer?, link: Pointer?, length: Long, source: Int): Int {
        routes.add(String(link?.getByteArray(0, length.toInt()) ?: ByteArray(0)))
        return 1
    }
}

val failures = mutableListOf<String>()

fun check(condition: Boolean, what: String) {
    if (!condition) {
        failures.add(what)
        println("FAIL: $what")
    }
}

fun bytes(text: String) = text.toByteArray(Charsets.UTF_8)

fun main(args: Array<String>) {
    if (args.size != 1) {
        System.err.println("usage: CABITestKt path/to/libDeepLinkC.so")
        exitProcess(2)
    }
    val lib = Native.load(args[0], DeepLinkC::class.java)
    val router = Router()
    val authenticator = Authenticator()
    val error = IntByReference(-100)
    val hosts = bytes("example.com")
    val logins = bytes("/orders")
    val signed = bytes("/wallet")
    val resolver = lib.dl_resolver_create_signed(
        hosts, hosts.size.toLong(), logins, logins.size.toLong(), null, null, signed, signed.size.toLong(),
        authenticator, null, router, null, error
    )
    check(resolver != null && error.value == DL_OK, "dl_resolver_create_signed: error ${error.value}")
    if (resolver == null) exitProcess(1)

    // Play's referrer, delivered, then delivered again (a new id, the same install): one route.
    val referrer = bytes("utm_source=news&deeplink=%2Forders%2F42")
    check(lib.dl_resolver_capture_referrer(resolver, referrer, referrer.size.toLong(), 1, 1_700_000_000, 1_699_999_000) == DL_OK, "referrer captured")
    check(lib.dl_resolver_signal(resolver, DL_EVENT_APP_READY) == DL_OK, "appReady signalled")
    check(router.routes.isEmpty(), "no route before the login: ${router.routes}")
    check(lib.dl_resolver_signal(resolver, DL_EVENT_LOGGED_IN) == DL_OK, "loggedIn signalled")
    check(lib.dl_resolver_capture_referrer(resolver, referrer, referrer.size.toLong(), 2, 1_700_000_000, 1_699_999_000) == DL_OK, "re-delivery accepted")
    check(router.routes == listOf("/orders/42"), "exactly one route: ${router.routes}")

    // A forged signed link: its tag's last digit changed. Refused by both capture functions.
    val genuine = Keys.sign("/wallet/transfer?to=7", nonce = 0x1234)
    val forged = genuine.dropLast(1) + (if (genuine.last() == '0') '1' else '0')
    val forgedLink = bytes(forged)
    check(lib.dl_resolver_capture_link(resolver, forgedLink, forgedLink.size.toLong(), DL_SOURCE_UNIVERSAL_LINK, 3) == DL_REJECTED, "forged link refused")
    val forgedReferrer = bytes("deeplink=" + URLEncoder.encode(forged, "UTF-8"))
    check(lib.dl_resolver_capture_referrer(resolver, forgedReferrer, forgedReferrer.size.toLong(), 4, 1_700_000_001, 0) == DL_REJECTED, "forged referrer refused")
    check(router.routes == listOf("/orders/42"), "nothing forged routed: ${router.routes}")

    // The genuine link gets through (the refusals above were the signature's).
    val genuineLink = bytes(genuine)
    check(lib.dl_resolver_capture_link(resolver, genuineLink, genuineLink.size.toLong(), DL_SOURCE_UNIVERSAL_LINK, 5) == DL_OK, "genuine link captured")
    check(router.routes == listOf("/orders/42", genuine), "the genuine link routed: ${router.routes}")

    lib.dl_resolver_destroy(resolver)
    if (failures.isEmpty()) {
        println("C ABI from Kotlin (JNA): every check passed")
        exitProcess(0)
    }
    exitProcess(1)
}
