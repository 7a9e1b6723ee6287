package android.hardware.input;

import android.view.InputEvent;

/**
 * Test helper: writes every platform call the injector makes to stderr, one line each, and plays the
 * platform's answer chosen by system properties: stub.refuse (throw INJECT_EVENTS SecurityException),
 * stub.undelivered (injectInputEvent returns false).
 */
public final class Recorder {
    public static void log(String line) {
        System.err.println(line);
        System.err.flush();
    }

    static boolean inject(String manager, InputEvent event, int mode) {
        if (System.getProperty("stub.refuse") != null) {
            // The message a MIUI phone gives without "USB debugging (Security settings)" (scrcpy #1865).
            throw new SecurityException("Injecting to another application requires INJECT_EVENTS permission");
        }
        log("inject " + manager + " mode=" + mode + " " + event);
        return System.getProperty("stub.undelivered") == null;
    }
}
