package android.hardware.input;

import android.view.InputEvent;

/**
 * Test stand-in for Android 14+: getInstance() still exists but goes through the current
 * application, which app_process does not have, so it fails there.
 */
public final class InputManager {
    public static InputManager getInstance() {
        Recorder.log("getInstance InputManager");
        throw new NullPointerException("ActivityThread.currentApplication() is null");
    }

    public boolean injectInputEvent(InputEvent event, int mode) {
        return Recorder.inject("InputManager", event, mode);
    }
}
