/**
 * The Kotlin sources of the sample app. SAMPLE_MAPPING (src/sim/sample-app.ts) was derived from
 * them line for line, so a retraced frame points at the real line: edit both together (the
 * sample-project tests check the lines the sample crash names).
 */

/** Source paths under app/src/main/java/com/droidbus/sample/, and their text. */
export const SAMPLE_KOTLIN_SOURCES: Readonly<Record<string, string>> = {
  'LoginActivity.kt': String.raw`package com.droidbus.sample

import android.app.Activity
import android.content.Intent
import android.os.Bundle
import android.widget.Button
import android.widget.EditText
import com.droidbus.sample.util.Validators

/** The launcher screen: an e-mail and password form; a valid e-mail opens HomeActivity. */
class LoginActivity : Activity() {

    private lateinit var emailField: EditText
    private lateinit var passwordField: EditText

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        setContentView(R.layout.activity_login)
        emailField = findViewById(R.id.email)
        passwordField = findViewById(R.id.password)
        findViewById<Button>(R.id.login).setOnClickListener { submit() }
    }

    private fun submit() {
        val email = emailField.text.toString()
        if (!Validators.isValidEmail(email)) {
            emailField.error = getString(R.string.invalid_email)
            return
        }
        startActivity(Intent(this, HomeActivity::class.java).putExtra(EXTRA_USER, email))
    }

    @Deprecated("Deprecated in Java")
    override fun onBackPressed() {
        super.onBackPressed()
    }

    companion object {
        const val EXTRA_USER = "user"
    }
}
`,
  'HomeActivity.kt': String.raw`package com.droidbus.sample

import android.app.Activity
import android.content.Intent
import android.os.Bundle
import android.view.View
import android.widget.ArrayAdapter
import android.widget.Button
import android.widget.ListView
import android.widget.TextView
import com.droidbus.sample.data.CartRepository
import com.droidbus.sample.data.PriceBook

/**
 * The signed-in screen: a list that scrolls, a button that opens DetailActivity, and a "Crash"
 * button whose handler fails to price the cart: the crash the simulator logs for this app.
 */
class HomeActivity : Activity(), View.OnClickListener {

    private val cart = CartRepository(PriceBook()).apply {
        addItem("DEMO-1", 2)
        addItem("DEMO-42", 1)
    }
    private lateinit var totalView: TextView

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        setContentView(R.layout.activity_home)
        totalView = findViewById(R.id.total)
        val items = (1..40).map { "Item $it" }
        val list = findViewById<ListView>(R.id.items)
        list.adapter = ArrayAdapter(this, android.R.layout.simple_list_item_1, items)
        list.setOnItemClickListener { _, _, position, _ -> openDetail(items[position]) }
        findViewById<Button>(R.id.open_detail).setOnClickListener(this)
        totalView.text = getString(R.string.total_unknown)

        // The deliberate crash: the cart holds DEMO-42, which PriceBook cannot
        // price, and nothing catches the failure in the click handler, so the
        // process dies with FATAL EXCEPTION: main.
        val crash = findViewById<Button>(R.id.crash)
        crash.setOnClickListener { onCrashClicked() }
    }

    override fun onClick(view: View) {
        openDetail("Item 1")
    }

    private fun openDetail(item: String) {
        startActivity(Intent(this, DetailActivity::class.java).putExtra(DetailActivity.EXTRA_ITEM, item))
    }

    /**
     * Prices the cart and shows the total. Throws IllegalStateException caused by
     * PriceUnavailableException, because DEMO-42 has no price.
     */
    private fun onCrashClicked() {
        totalView.text = getString(R.string.total_loading)
        val total = checkoutTotal("demo")
        totalView.text = getString(R.string.total_format, total)
    }

    private fun checkoutTotal(user: String): Long {
        return cart.totalFor(user)
    }
}
`,
  'DetailActivity.kt': String.raw`package com.droidbus.sample

import android.app.Activity
import android.os.Bundle
import android.widget.TextView
import com.droidbus.sample.data.PriceBook

/** Shows one item of the list and its unit price. */
class DetailActivity : Activity() {

    private lateinit var titleView: TextView

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        setContentView(R.layout.activity_detail)
        titleView = findViewById(R.id.detail_title)
        bindItem(intent.getStringExtra(EXTRA_ITEM) ?: "Item 1")
    }

    private fun bindItem(item: String) {
        val cents = PriceBook().priceOf("DEMO-1")
        titleView.text = getString(R.string.detail_format, item, cents / 100.0)
    }

    companion object {
        const val EXTRA_ITEM = "item"
    }
}
`,
  'WebActivity.kt': String.raw`package com.droidbus.sample

import android.app.Activity
import android.os.Bundle
import android.webkit.WebView

/** The web sign-in page from the app's assets; WebView debugging on in debug builds. */
class WebActivity : Activity() {

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        WebView.setWebContentsDebuggingEnabled(BuildConfig.DEBUG)
        val web = WebView(this)
        web.settings.javaScriptEnabled = true
        setContentView(web)
        web.loadUrl("file:///android_asset/web/sign-in.html")
    }
}
`,
  'NativeBridge.kt': String.raw`package com.droidbus.sample

/** The sample's native library: [crash] dereferences a null pointer in libsample-native.so. */
object NativeBridge {
    init {
        System.loadLibrary("sample-native")
    }

    external fun crash()
}
`,
  'data/CartRepository.kt': String.raw`package com.droidbus.sample.data

/** The items in the cart and their total, priced by a [PriceBook]. */
class CartRepository(private val prices: PriceBook) {

    private val items = mutableListOf<Pair<String, Int>>()

    /** Adds [quantity] units of the item with stock-keeping unit [sku]. */
    fun addItem(sku: String, quantity: Int) {
        require(quantity > 0) { "quantity must be positive" }
        items += sku to quantity
    }

    /**
     * The cart's total in cents for [user]. Fails with IllegalStateException when an item has no
     * price, keeping the PriceUnavailableException as its cause.
     */
    fun totalFor(user: String): Long {
        var total = 0L
        try {
            for ((sku, quantity) in items) {
                total += prices.priceOf(sku, quantity)
            }
        } catch (e: PriceUnavailableException) {
            throw IllegalStateException("Could not compute the cart total for $user", e)
        }
        return total
    }
}
`,
  'data/PriceBook.kt': String.raw`package com.droidbus.sample.data

/** Unit prices in cents by stock-keeping unit. DEMO-42 deliberately has none. */
class PriceBook {

    private val prices = mapOf("DEMO-1" to 499L, "DEMO-7" to 1250L)

    /** The unit price of [sku]. */
    fun priceOf(sku: String): Long {
        return prices[sku] ?: throw PriceUnavailableException("No price for sku $sku")
    }

    /** The price of [quantity] units of [sku]. */
    fun priceOf(sku: String, quantity: Int): Long {
        val unit = prices[sku]
        if (unit == null) {
            throw PriceUnavailableException("No price for sku $sku")
        }
        return unit * quantity
    }
}
`,
  'data/PriceUnavailableException.kt': String.raw`package com.droidbus.sample.data

/** Thrown when the price book has no price for an item. */
class PriceUnavailableException(message: String) : RuntimeException(message)
`,
  'util/Validators.kt': String.raw`package com.droidbus.sample.util

/** Input checks for the login form. */
object Validators {

    private val EMAIL = Regex("^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", RegexOption.IGNORE_CASE)

    /** True when [email] looks like an address: one @ and a dot in the domain. */
    fun isValidEmail(email: String): Boolean {
        return EMAIL.matches(email)
    }
}
`,
};
