/**
 * The text of every file of the sample Android project except the gradle wrapper scripts (those
 * name this droidbus installation's paths and are written by write-sample-project.ts).
 */
import {
  SAMPLE_COMPILE_SDK,
  SAMPLE_MIN_SDK,
  SAMPLE_PACKAGE,
  SAMPLE_ROOT_PROJECT,
  SAMPLE_TARGET_SDK,
  SAMPLE_VERSION_CODE,
  SAMPLE_VERSION_NAME,
  SAMPLE_WEB_PAGE,
} from '../sample-app.js';
import { SAMPLE_KOTLIN_SOURCES } from './kotlin-sources.js';

/** The Gradle version the wrapper properties name and the stand-in reports. */
export const SAMPLE_GRADLE_VERSION = '8.11.1';
export const SAMPLE_AGP_VERSION = '8.7.3';
export const SAMPLE_KOTLIN_VERSION = '2.0.21';

const SETTINGS = `pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}
dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "${SAMPLE_ROOT_PROJECT}"
include(":app")
`;

const ROOT_BUILD = `// Top-level build file: plugins are declared here and applied in the modules.
plugins {
    id("com.android.application") version "${SAMPLE_AGP_VERSION}" apply false
    id("org.jetbrains.kotlin.android") version "${SAMPLE_KOTLIN_VERSION}" apply false
    // Publishing and analysis as real apps set them up (ids and versions from each plugin's README
    // and the Gradle Plugin Portal; their tasks in plugin-tasks.ts): their tasks leave the machine.
    id("io.github.gradle-nexus.publish-plugin") version "2.0.0"
    id("org.sonarqube") version "5.1.0.4882"
    id("net.researchgate.release") version "3.0.2"
}

nexusPublishing {
    repositories {
        sonatype()
    }
}
`;

const GRADLE_PROPERTIES = `# Project-wide Gradle settings.
org.gradle.jvmargs=-Xmx2048m -Dfile.encoding=UTF-8
org.gradle.caching=true
android.useAndroidX=true
android.nonTransitiveRClass=true
kotlin.code.style=official
`;

const APP_BUILD = `plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
    \`maven-publish\`
    id("com.github.triplet.play") version "3.12.1"
    id("com.google.firebase.appdistribution") version "5.0.0"
    id("com.google.firebase.crashlytics") version "3.0.2"
    id("com.google.cloud.tools.jib") version "3.4.4"
    id("com.emergetools.android") version "4.0.0"
    id("com.bmuschko.docker-remote-api") version "9.4.0"
}

android {
    namespace = "${SAMPLE_PACKAGE}"
    compileSdk = ${SAMPLE_COMPILE_SDK}

    defaultConfig {
        applicationId = "${SAMPLE_PACKAGE}"
        minSdk = ${SAMPLE_MIN_SDK}
        targetSdk = ${SAMPLE_TARGET_SDK}
        versionCode = ${SAMPLE_VERSION_CODE}
        versionName = "${SAMPLE_VERSION_NAME}"

        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
    }

    buildTypes {
        debug {
            applicationIdSuffix = ".debug"
        }
        release {
            isMinifyEnabled = true
            proguardFiles(
                getDefaultProguardFile("proguard-android-optimize.txt"),
                "proguard-rules.pro"
            )
            // Signed with the debug key so the release variant can be installed for testing.
            signingConfig = signingConfigs.getByName("debug")
        }
    }

    flavorDimensions += "tier"
    productFlavors {
        create("demo") {
            dimension = "tier"
            applicationIdSuffix = ".demo"
        }
        create("full") {
            dimension = "tier"
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }
    kotlinOptions {
        jvmTarget = "17"
    }
}

dependencies {
    testImplementation("junit:junit:4.13.2")
    androidTestImplementation("androidx.test.ext:junit:1.2.1")
    androidTestImplementation("androidx.test:runner:1.6.2")
    androidTestImplementation("androidx.test.uiautomator:uiautomator:2.3.0")
    androidTestImplementation("androidx.test.espresso:espresso-core:3.6.1")
}
`;

const PROGUARD_RULES = `# R8 rules of the release build (added to proguard-android-optimize.txt).
#
# Line numbers are kept and the SourceFile attribute is not, so R8 names every class's source file
# r8-map-id-<id>: a crash's frames then say which mapping.txt (pg_map_id) deobfuscates them.
-keepattributes LineNumberTable

# JNI: the native library looks these up by name.
-keep class ${SAMPLE_PACKAGE}.NativeBridge { *; }
`;

const MANIFEST = `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android">

    <uses-permission android:name="android.permission.INTERNET" />
    <uses-permission android:name="android.permission.CAMERA" />

    <application
        android:allowBackup="true"
        android:label="@string/app_name"
        android:theme="@android:style/Theme.Material.Light">
        <activity
            android:name=".LoginActivity"
            android:exported="true">
            <intent-filter>
                <action android:name="android.intent.action.MAIN" />
                <category android:name="android.intent.category.LAUNCHER" />
            </intent-filter>
        </activity>
        <activity
            android:name=".HomeActivity"
            android:exported="false" />
        <activity
            android:name=".DetailActivity"
            android:exported="true">
            <intent-filter>
                <action android:name="android.intent.action.VIEW" />
                <category android:name="android.intent.category.DEFAULT" />
                <category android:name="android.intent.category.BROWSABLE" />
                <data android:scheme="droidbus" android:host="item" />
            </intent-filter>
        </activity>
        <activity
            android:name=".WebActivity"
            android:exported="true" />
    </application>

</manifest>
`;

const STRINGS = `<resources>
    <string name="app_name">Droidbus Sample</string>
    <string name="email_hint">E-mail</string>
    <string name="password_hint">Password</string>
    <string name="login">Log in</string>
    <string name="invalid_email">Enter a valid e-mail address</string>
    <string name="open_detail">Open item details</string>
    <string name="crash">Crash</string>
    <string name="total_unknown">Total: not computed yet</string>
    <string name="total_loading">Total: computing…</string>
    <string name="total_format">Total: %1$d cents</string>
    <string name="detail_format">%1$s costs %2$.2f</string>
</resources>
`;

/** The Arabic translation — without open_detail, which stays English on screen (check_layout finds it). */
const STRINGS_AR = `<resources>
    <string name="app_name">تطبيق Droidbus</string>
    <string name="email_hint">البريد الإلكتروني</string>
    <string name="password_hint">كلمة المرور</string>
    <string name="login">تسجيل الدخول</string>
    <string name="invalid_email">أدخل عنوان بريد إلكتروني صالحًا</string>
    <string name="crash">تعطّل</string>
    <string name="total_unknown">المجموع: لم يُحسب بعد</string>
    <string name="total_loading">المجموع: جارٍ الحساب…</string>
    <string name="total_format">المجموع: %1$d سنت</string>
    <string name="detail_format">سعر %1$s هو %2$.2f</string>
</resources>
`;

const LAYOUT_LOGIN = `<?xml version="1.0" encoding="utf-8"?>
<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
    android:layout_width="match_parent"
    android:layout_height="match_parent"
    android:orientation="vertical"
    android:padding="24dp">

    <EditText
        android:id="@+id/email"
        android:layout_width="match_parent"
        android:layout_height="wrap_content"
        android:hint="@string/email_hint"
        android:inputType="textEmailAddress" />

    <EditText
        android:id="@+id/password"
        android:layout_width="match_parent"
        android:layout_height="wrap_content"
        android:hint="@string/password_hint"
        android:inputType="textPassword" />

    <Button
        android:id="@+id/login"
        android:layout_width="match_parent"
        android:layout_height="wrap_content"
        android:text="@string/login" />
</LinearLayout>
`;

const LAYOUT_HOME = `<?xml version="1.0" encoding="utf-8"?>
<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
    android:layout_width="match_parent"
    android:layout_height="match_parent"
    android:orientation="vertical"
    android:padding="16dp">

    <TextView
        android:id="@+id/welcome"
        android:layout_width="match_parent"
        android:layout_height="wrap_content"
        android:textColor="#49454F" />

    <TextView
        android:id="@+id/total"
        android:layout_width="match_parent"
        android:layout_height="wrap_content" />

    <!-- A fixed height: the label takes two lines at large font sizes on small phones, and is cut. -->
    <LinearLayout
        android:layout_width="match_parent"
        android:layout_height="wrap_content"
        android:orientation="horizontal">

        <Button
            android:id="@+id/open_detail"
            android:layout_width="0dp"
            android:layout_height="48dp"
            android:layout_weight="1"
            android:text="@string/open_detail" />

        <Button
            android:id="@+id/crash"
            android:layout_width="0dp"
            android:layout_height="48dp"
            android:layout_weight="1"
            android:text="@string/crash" />
    </LinearLayout>

    <ListView
        android:id="@+id/items"
        android:layout_width="match_parent"
        android:layout_height="0dp"
        android:layout_weight="1" />
</LinearLayout>
`;

const LAYOUT_DETAIL = `<?xml version="1.0" encoding="utf-8"?>
<FrameLayout xmlns:android="http://schemas.android.com/apk/res/android"
    android:layout_width="match_parent"
    android:layout_height="match_parent"
    android:padding="16dp">

    <TextView
        android:id="@+id/detail_title"
        android:layout_width="wrap_content"
        android:layout_height="wrap_content"
        android:textSize="20sp" />
</FrameLayout>
`;

const UNIT_TEST = `package com.droidbus.sample

import com.droidbus.sample.data.CartRepository
import com.droidbus.sample.data.PriceBook
import org.junit.Assert.assertEquals
import org.junit.Test

class CartRepositoryTest {

    @Test
    fun totalMultipliesUnitPriceByQuantity() {
        val cart = CartRepository(PriceBook())
        cart.addItem("DEMO-1", 2)
        assertEquals(998L, cart.totalFor("test"))
    }

    @Test(expected = IllegalStateException::class)
    fun anItemWithoutAPriceFailsTheTotal() {
        val cart = CartRepository(PriceBook())
        cart.addItem("DEMO-42", 1)
        cart.totalFor("test")
    }
}
`;

const INSTRUMENTED_TEST = `package com.droidbus.sample

import android.content.Intent
import androidx.test.ext.junit.runners.AndroidJUnit4
import androidx.test.platform.app.InstrumentationRegistry
import androidx.test.uiautomator.By
import androidx.test.uiautomator.UiDevice
import androidx.test.uiautomator.Until
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith

@RunWith(AndroidJUnit4::class)
class LoginActivityTest {

    @Test
    fun packageNameIsTheSampleApp() {
        val context = InstrumentationRegistry.getInstrumentation().targetContext
        assertTrue(context.packageName.startsWith("${SAMPLE_PACKAGE}"))
    }

    @Test
    fun signInFormIsOnScreen() {
        val device = UiDevice.getInstance(InstrumentationRegistry.getInstrumentation())
        val context = InstrumentationRegistry.getInstrumentation().targetContext
        val launch = context.packageManager.getLaunchIntentForPackage(context.packageName)!!
        context.startActivity(launch.addFlags(Intent.FLAG_ACTIVITY_CLEAR_TASK or Intent.FLAG_ACTIVITY_NEW_TASK))
        assertTrue(device.wait(Until.hasObject(By.res("${SAMPLE_PACKAGE}", "username")), 5_000))
    }
}
`;

/**
 * A flaky test a developer would recognise: it sleeps a fixed 300 ms for the home screen's enter
 * transition and then checks the welcome text, instead of waiting for it — on a device whose
 * transition runs longer it fails (about one run in seven with animations on; never with them off).
 */
const FLAKY_TEST = `package com.droidbus.sample

import androidx.test.espresso.Espresso.onView
import androidx.test.espresso.assertion.ViewAssertions.matches
import androidx.test.espresso.matcher.ViewMatchers.isDisplayed
import androidx.test.espresso.matcher.ViewMatchers.withId
import androidx.test.ext.junit.rules.ActivityScenarioRule
import androidx.test.ext.junit.runners.AndroidJUnit4
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

@RunWith(AndroidJUnit4::class)
class WelcomeTest {

    @get:Rule
    val home = ActivityScenarioRule(HomeActivity::class.java)

    @Test
    fun welcomeShowsAfterSignIn() {
        // The enter transition takes about 250 ms, so 300 ms should be enough…
        Thread.sleep(300)
        onView(withId(R.id.welcome)).check(matches(isDisplayed()))
    }
}
`;

const GITIGNORE = `*.iml
.gradle
/local.properties
/.idea
.DS_Store
/build
/captures
.externalNativeBuild
.cxx
`;

/** gradle/wrapper/gradle-wrapper.properties naming the Gradle version. */
export function wrapperProperties(): string {
  return `distributionBase=GRADLE_USER_HOME
distributionPath=wrapper/dists
distributionUrl=https\\://services.gradle.org/distributions/gradle-${SAMPLE_GRADLE_VERSION}-bin.zip
networkTimeout=10000
validateDistributionUrl=true
zipStoreBase=GRADLE_USER_HOME
zipStorePath=wrapper/dists
`;
}

/** Every project file but the wrapper scripts: project-relative path → text. */
export function sampleProjectFiles(): Record<string, string> {
  const packageDir = SAMPLE_PACKAGE.replaceAll('.', '/');
  const files: Record<string, string> = {
    'settings.gradle.kts': SETTINGS,
    'build.gradle.kts': ROOT_BUILD,
    'gradle.properties': GRADLE_PROPERTIES,
    '.gitignore': GITIGNORE,
    'gradle/wrapper/gradle-wrapper.properties': wrapperProperties(),
    'app/build.gradle.kts': APP_BUILD,
    'app/proguard-rules.pro': PROGUARD_RULES,
    'app/.gitignore': '/build\n',
    'app/src/main/AndroidManifest.xml': MANIFEST,
    'app/src/main/assets/web/sign-in.html': SAMPLE_WEB_PAGE,
    'app/src/main/res/values/strings.xml': STRINGS,
    'app/src/main/res/values-ar/strings.xml': STRINGS_AR,
    'app/src/main/res/layout/activity_login.xml': LAYOUT_LOGIN,
    'app/src/main/res/layout/activity_home.xml': LAYOUT_HOME,
    'app/src/main/res/layout/activity_detail.xml': LAYOUT_DETAIL,
    [`app/src/test/java/${packageDir}/CartRepositoryTest.kt`]: UNIT_TEST,
    [`app/src/androidTest/java/${packageDir}/LoginActivityTest.kt`]: INSTRUMENTED_TEST,
    [`app/src/androidTest/java/${packageDir}/WelcomeTest.kt`]: FLAKY_TEST,
  };
  for (const [path, text] of Object.entries(SAMPLE_KOTLIN_SOURCES)) {
    files[`app/src/main/java/${packageDir}/${path}`] = text;
  }
  return files;
}
