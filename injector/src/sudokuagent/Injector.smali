# sudoku-agent's on-device touch injector (Dalvik assembly, built by ../../build.sh with Debian's smali).
#
# Runs as the shell user, which holds INJECT_EVENTS:
#     CLASSPATH=/data/local/tmp/<name>.dex app_process / sudokuagent.Injector
# and injects touchscreen MotionEvents through the platform input manager, found by reflection the way
# scrcpy's server did before it moved to a fake Context: InputManagerGlobal.getInstance() where that
# class exists (Android 14+), else InputManager.getInstance() (Android 5-13). The events are built
# like AOSP's `input tap` builds them (cmds/input Input.java up to 11, InputShellCommand from 12):
# MotionEvent.obtain(downTime, eventTime, action, x, y, pressure 1 (0 when lifting), size 1, meta 0,
# precision 1 x 1, device 0, edge 0), source TOUCHSCREEN, mode WAIT_FOR_FINISH, so an "ok" means
# the focused app has handled the event. Protocol: ../../README.md.
#
# The same program in Java, for readers (the smali below is the source of truth):
#
#   public static void main(String[] args) {
#       try { Looper.prepareMainLooper(); } catch (Throwable t) { }   // as scrcpy: vendor code may want one
#       String name;
#       try { name = lookup(); } catch (Throwable t) { reply("error ..." + describe(t)); System.exit(1); }
#       reply("ready 1 " + name);
#       BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
#       for (String line; (line = in.readLine()) != null; ) {
#           String answer;
#           try { answer = handle(line); }
#           catch (InvocationTargetException e) {
#               if (e.getCause() instanceof SecurityException) refuse(e.getCause());   // exits 2
#               answer = "fail " + describe(e);
#           }
#           catch (NumberFormatException e) { answer = "bad not a number: " + line; }
#           catch (Exception e) { answer = "fail " + describe(e); }
#           reply(answer);
#       }
#       if (touching) try { touch(ACTION_CANCEL, lastX, lastY); } catch (Throwable t) { }
#       System.exit(0);
#   }

.class public final Lsudokuagent/Injector;
.super Ljava/lang/Object;

# The platform object whose injectInputEvent(InputEvent, int) we call, and that method.
.field private static manager:Ljava/lang/Object;
.field private static inject:Ljava/lang/reflect/Method;

# The gesture in progress between `down` and `up`: Android rejects an UP or MOVE without its DOWN and
# expects every event of a gesture to carry the DOWN's time.
.field private static touching:Z
.field private static downTime:J
.field private static lastX:F
.field private static lastY:F


.method public static main([Ljava/lang/String;)V
    .locals 5

    :looper_start
    invoke-static {}, Landroid/os/Looper;->prepareMainLooper()V
    :looper_end
    .catch Ljava/lang/Throwable; {:looper_start .. :looper_end} :looper_failed
    goto :lookup_start
    :looper_failed
    # Already prepared, or refused: injection does not need it.
    move-exception v0

    :lookup_start
    invoke-static {}, Lsudokuagent/Injector;->lookup()Ljava/lang/String;
    move-result-object v1
    :lookup_end
    .catch Ljava/lang/Throwable; {:lookup_start .. :lookup_end} :lookup_failed

    const-string v0, "ready 1 "
    invoke-virtual {v0, v1}, Ljava/lang/String;->concat(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v0
    invoke-static {v0}, Lsudokuagent/Injector;->reply(Ljava/lang/String;)V

    new-instance v0, Ljava/io/BufferedReader;
    new-instance v1, Ljava/io/InputStreamReader;
    sget-object v2, Ljava/lang/System;->in:Ljava/io/InputStream;
    invoke-direct {v1, v2}, Ljava/io/InputStreamReader;-><init>(Ljava/io/InputStream;)V
    invoke-direct {v0, v1}, Ljava/io/BufferedReader;-><init>(Ljava/io/Reader;)V

    :next_line
    invoke-virtual {v0}, Ljava/io/BufferedReader;->readLine()Ljava/lang/String;
    move-result-object v1
    if-eqz v1, :stdin_closed

    :handle_start
    invoke-static {v1}, Lsudokuagent/Injector;->handle(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v2
    :handle_end
    .catch Ljava/lang/reflect/InvocationTargetException; {:handle_start .. :handle_end} :inject_threw
    .catch Ljava/lang/NumberFormatException; {:handle_start .. :handle_end} :not_a_number
    .catch Ljava/lang/Exception; {:handle_start .. :handle_end} :failed

    :answer
    invoke-static {v2}, Lsudokuagent/Injector;->reply(Ljava/lang/String;)V
    goto :next_line

    :inject_threw
    move-exception v2
    invoke-virtual {v2}, Ljava/lang/reflect/InvocationTargetException;->getCause()Ljava/lang/Throwable;
    move-result-object v3
    instance-of v4, v3, Ljava/lang/SecurityException;
    if-eqz v4, :failed_with
    invoke-static {v3}, Lsudokuagent/Injector;->refuse(Ljava/lang/Throwable;)V
    return-void

    :not_a_number
    move-exception v2
    const-string v2, "bad not a number: "
    invoke-virtual {v2, v1}, Ljava/lang/String;->concat(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v2
    goto :answer

    :failed
    move-exception v2
    :failed_with
    invoke-static {v2}, Lsudokuagent/Injector;->describe(Ljava/lang/Throwable;)Ljava/lang/String;
    move-result-object v2
    const-string v3, "fail "
    invoke-virtual {v3, v2}, Ljava/lang/String;->concat(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v2
    goto :answer

    :stdin_closed
    # The host is gone: never leave a finger down on the app.
    sget-boolean v2, Lsudokuagent/Injector;->touching:Z
    if-eqz v2, :exit
    const/4 v2, 3
    sget v3, Lsudokuagent/Injector;->lastX:F
    sget v4, Lsudokuagent/Injector;->lastY:F
    :cancel_start
    invoke-static {v2, v3, v4}, Lsudokuagent/Injector;->touch(IFF)Ljava/lang/String;
    :cancel_end
    .catch Ljava/lang/Throwable; {:cancel_start .. :cancel_end} :cancel_failed
    goto :exit
    :cancel_failed
    move-exception v2

    :exit
    # Exit explicitly: the framework may have started threads that would keep the VM alive.
    const/4 v0, 0
    invoke-static {v0}, Ljava/lang/System;->exit(I)V
    return-void

    :lookup_failed
    move-exception v0
    invoke-static {v0}, Lsudokuagent/Injector;->describe(Ljava/lang/Throwable;)Ljava/lang/String;
    move-result-object v0
    const-string v1, "error cannot reach Android's input manager: "
    invoke-virtual {v1, v0}, Ljava/lang/String;->concat(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v0
    invoke-static {v0}, Lsudokuagent/Injector;->reply(Ljava/lang/String;)V
    const/4 v0, 1
    invoke-static {v0}, Ljava/lang/System;->exit(I)V
    return-void
.end method


# Finds the input manager and its injectInputEvent(InputEvent, int); returns the class it came from.
.method private static lookup()Ljava/lang/String;
    .locals 6

    # Android 14 moved injection into InputManagerGlobal; there InputManager.getInstance() needs an
    # application context that app_process does not have.
    :global_start
    const-string v0, "android.hardware.input.InputManagerGlobal"
    invoke-static {v0}, Ljava/lang/Class;->forName(Ljava/lang/String;)Ljava/lang/Class;
    move-result-object v0
    :global_end
    .catch Ljava/lang/ClassNotFoundException; {:global_start .. :global_end} :before_14
    goto :found

    :before_14
    move-exception v0
    const-string v0, "android.hardware.input.InputManager"
    invoke-static {v0}, Ljava/lang/Class;->forName(Ljava/lang/String;)Ljava/lang/Class;
    move-result-object v0

    :found
    const-string v1, "getInstance"
    const/4 v2, 0
    new-array v3, v2, [Ljava/lang/Class;
    invoke-virtual {v0, v1, v3}, Ljava/lang/Class;->getDeclaredMethod(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;
    move-result-object v1
    const/4 v3, 0
    new-array v4, v2, [Ljava/lang/Object;
    invoke-virtual {v1, v3, v4}, Ljava/lang/reflect/Method;->invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;
    move-result-object v1
    sput-object v1, Lsudokuagent/Injector;->manager:Ljava/lang/Object;

    invoke-virtual {v1}, Ljava/lang/Object;->getClass()Ljava/lang/Class;
    move-result-object v1
    const/4 v2, 2
    new-array v3, v2, [Ljava/lang/Class;
    const-class v4, Landroid/view/InputEvent;
    const/4 v5, 0
    aput-object v4, v3, v5
    sget-object v4, Ljava/lang/Integer;->TYPE:Ljava/lang/Class;
    const/4 v5, 1
    aput-object v4, v3, v5
    const-string v2, "injectInputEvent"
    invoke-virtual {v1, v2, v3}, Ljava/lang/Class;->getMethod(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;
    move-result-object v1
    sput-object v1, Lsudokuagent/Injector;->inject:Ljava/lang/reflect/Method;

    invoke-virtual {v0}, Ljava/lang/Class;->getName()Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method


# One command line -> its answer. Commands (fields separated by one space):
#   tap X Y [HOLD_MS]   DOWN, wait HOLD_MS (default 0, like `input tap`), UP   -> ok
#   down X Y | move X Y | up X Y                                               -> ok
#   sleep MS            waits on the phone, for gaps between taps               -> ok
#   sync TOKEN                                                                 -> sync TOKEN
# Anything else -> "bad <why>: <line>", injecting nothing.
.method private static handle(Ljava/lang/String;)Ljava/lang/String;
    .locals 8

    invoke-virtual {p0}, Ljava/lang/String;->trim()Ljava/lang/String;
    move-result-object p0
    const-string v0, " "
    invoke-virtual {p0, v0}, Ljava/lang/String;->split(Ljava/lang/String;)[Ljava/lang/String;
    move-result-object v0
    array-length v1, v0
    const/4 v2, 0
    aget-object v2, v0, v2

    const-string v3, "sync"
    invoke-virtual {v3, v2}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v3
    if-eqz v3, :not_sync
    const/4 v3, 2
    if-ne v1, v3, :wrong_fields
    return-object p0

    :not_sync
    const-string v3, "sleep"
    invoke-virtual {v3, v2}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v3
    if-eqz v3, :not_sleep
    const/4 v3, 2
    if-ne v1, v3, :wrong_fields
    const/4 v3, 1
    aget-object v3, v0, v3
    invoke-static {v3}, Ljava/lang/Long;->parseLong(Ljava/lang/String;)J
    move-result-wide v5
    const-wide/16 v3, 0
    cmp-long v3, v5, v3
    if-ltz v3, :negative_sleep
    invoke-static {v5, v6}, Landroid/os/SystemClock;->sleep(J)V
    const-string v7, "ok"
    return-object v7

    :not_sleep
    const-string v3, "tap"
    invoke-virtual {v3, v2}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v3
    if-eqz v3, :not_tap
    const-wide/16 v5, 0
    const/4 v3, 3
    if-eq v1, v3, :tap_parse
    const/4 v3, 4
    if-ne v1, v3, :wrong_fields
    const/4 v3, 3
    aget-object v3, v0, v3
    invoke-static {v3}, Ljava/lang/Long;->parseLong(Ljava/lang/String;)J
    move-result-wide v5
    const-wide/16 v3, 0
    cmp-long v3, v5, v3
    if-ltz v3, :negative_hold
    :tap_parse
    # Parse both coordinates before the DOWN so a bad number never leaves a finger down.
    const/4 v3, 1
    aget-object v3, v0, v3
    invoke-static {v3}, Ljava/lang/Float;->parseFloat(Ljava/lang/String;)F
    move-result v3
    const/4 v4, 2
    aget-object v4, v0, v4
    invoke-static {v4}, Ljava/lang/Float;->parseFloat(Ljava/lang/String;)F
    move-result v4
    sget-boolean v7, Lsudokuagent/Injector;->touching:Z
    if-nez v7, :already_down
    const/4 v7, 0
    invoke-static {v7, v3, v4}, Lsudokuagent/Injector;->touch(IFF)Ljava/lang/String;
    move-result-object v7
    const-string v2, "ok"
    invoke-virtual {v2, v7}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v2
    if-nez v2, :tap_hold
    return-object v7
    :tap_hold
    invoke-static {v5, v6}, Landroid/os/SystemClock;->sleep(J)V
    const/4 v7, 1
    invoke-static {v7, v3, v4}, Lsudokuagent/Injector;->touch(IFF)Ljava/lang/String;
    move-result-object v7
    return-object v7

    :not_tap
    # down / move / up: the action, and whether it needs a touch in progress (1) or none (0).
    const-string v3, "down"
    invoke-virtual {v3, v2}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v3
    if-eqz v3, :not_down
    const/4 v5, 0
    const/4 v6, 0
    goto :single

    :not_down
    const-string v3, "move"
    invoke-virtual {v3, v2}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v3
    if-eqz v3, :not_move
    const/4 v5, 2
    const/4 v6, 1
    goto :single

    :not_move
    const-string v3, "up"
    invoke-virtual {v3, v2}, Ljava/lang/String;->equals(Ljava/lang/Object;)Z
    move-result v3
    if-eqz v3, :unknown
    const/4 v5, 1
    const/4 v6, 1

    :single
    const/4 v3, 3
    if-ne v1, v3, :wrong_fields
    const/4 v3, 1
    aget-object v3, v0, v3
    invoke-static {v3}, Ljava/lang/Float;->parseFloat(Ljava/lang/String;)F
    move-result v3
    const/4 v4, 2
    aget-object v4, v0, v4
    invoke-static {v4}, Ljava/lang/Float;->parseFloat(Ljava/lang/String;)F
    move-result v4
    sget-boolean v7, Lsudokuagent/Injector;->touching:Z
    if-eq v7, v6, :state_fits
    if-eqz v6, :already_down
    const-string v7, "bad no touch is down: "
    goto :bad
    :state_fits
    invoke-static {v5, v3, v4}, Lsudokuagent/Injector;->touch(IFF)Ljava/lang/String;
    move-result-object v7
    return-object v7

    :already_down
    const-string v7, "bad a touch is already down: "
    goto :bad
    :negative_hold
    const-string v7, "bad negative hold: "
    goto :bad
    :negative_sleep
    const-string v7, "bad negative sleep: "
    goto :bad
    :wrong_fields
    const-string v7, "bad wrong number of fields: "
    goto :bad
    :unknown
    const-string v7, "bad unknown command: "
    :bad
    invoke-virtual {v7, p0}, Ljava/lang/String;->concat(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v7
    return-object v7
.end method


# Injects one touchscreen event of the gesture (action: 0 DOWN, 1 UP, 2 MOVE, 3 CANCEL) and
# returns "ok", or "fail ..." when Android did not deliver it. Throws what injectInputEvent throws.
.method private static touch(IFF)Ljava/lang/String;
    .locals 16

    invoke-static {}, Landroid/os/SystemClock;->uptimeMillis()J
    move-result-wide v14

    # obtain(downTime v0-1, eventTime v2-3, action v4, x v5, y v6, pressure v7, size v8, metaState v9,
    #        xPrecision v10, yPrecision v11, deviceId v12, edgeFlags v13)
    move/from16 v4, p0
    move-wide v0, v14
    if-eqz v4, :times_set
    sget-wide v0, Lsudokuagent/Injector;->downTime:J
    :times_set
    move-wide v2, v14
    move/from16 v5, p1
    move/from16 v6, p2
    # Pressure 0 when the finger leaves (UP, CANCEL), 1 otherwise, as `input tap` sends.
    const/high16 v7, 0x3f800000
    const/4 v8, 1
    if-eq v4, v8, :lifted
    const/4 v8, 3
    if-ne v4, v8, :pressure_set
    :lifted
    const/4 v7, 0
    :pressure_set
    const/high16 v8, 0x3f800000
    const/4 v9, 0
    const/high16 v10, 0x3f800000
    const/high16 v11, 0x3f800000
    const/4 v12, 0
    const/4 v13, 0
    invoke-static/range {v0 .. v13}, Landroid/view/MotionEvent;->obtain(JJIFFFFIFFII)Landroid/view/MotionEvent;
    move-result-object v0
    # InputDevice.SOURCE_TOUCHSCREEN
    const/16 v1, 0x1002
    invoke-virtual {v0, v1}, Landroid/view/MotionEvent;->setSource(I)V

    # injectInputEvent(event, INJECT_INPUT_EVENT_MODE_WAIT_FOR_FINISH): returns once the app handled it.
    const/4 v1, 2
    new-array v2, v1, [Ljava/lang/Object;
    const/4 v3, 0
    aput-object v0, v2, v3
    invoke-static {v1}, Ljava/lang/Integer;->valueOf(I)Ljava/lang/Integer;
    move-result-object v1
    const/4 v3, 1
    aput-object v1, v2, v3
    sget-object v1, Lsudokuagent/Injector;->inject:Ljava/lang/reflect/Method;
    sget-object v3, Lsudokuagent/Injector;->manager:Ljava/lang/Object;
    invoke-virtual {v1, v3, v2}, Ljava/lang/reflect/Method;->invoke(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;
    move-result-object v1
    check-cast v1, Ljava/lang/Boolean;
    invoke-virtual {v1}, Ljava/lang/Boolean;->booleanValue()Z
    move-result v1
    if-nez v1, :delivered
    const-string v0, "fail Android did not deliver the event (injectInputEvent returned false)"
    return-object v0

    :delivered
    move/from16 v4, p0
    if-nez v4, :not_down
    sput-wide v14, Lsudokuagent/Injector;->downTime:J
    const/4 v1, 1
    sput-boolean v1, Lsudokuagent/Injector;->touching:Z
    :not_down
    const/4 v1, 1
    if-eq v4, v1, :ended
    const/4 v1, 3
    if-ne v4, v1, :remember
    :ended
    const/4 v1, 0
    sput-boolean v1, Lsudokuagent/Injector;->touching:Z
    :remember
    sput p1, Lsudokuagent/Injector;->lastX:F
    sput p2, Lsudokuagent/Injector;->lastY:F
    const-string v0, "ok"
    return-object v0
.end method


# Prints the one line the host shows the user when Android refuses injection, then exits 2.
.method private static refuse(Ljava/lang/Throwable;)V
    .locals 2
    invoke-static {p0}, Ljava/lang/String;->valueOf(Ljava/lang/Object;)Ljava/lang/String;
    move-result-object v0
    const-string v1, "refused Android refused to inject touches ("
    invoke-virtual {v1, v0}, Ljava/lang/String;->concat(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v0
    const-string v1, "). In Developer options enable \"USB debugging (Security settings)\" (Xiaomi, Redmi, POCO and some other phones need it to simulate input), reboot the phone and retry."
    invoke-virtual {v0, v1}, Ljava/lang/String;->concat(Ljava/lang/String;)Ljava/lang/String;
    move-result-object v0
    invoke-static {v0}, Lsudokuagent/Injector;->reply(Ljava/lang/String;)V
    const/4 v0, 2
    invoke-static {v0}, Ljava/lang/System;->exit(I)V
    return-void
.end method


# The exception a reflective call hides behind InvocationTargetException, as text.
.method private static describe(Ljava/lang/Throwable;)Ljava/lang/String;
    .locals 2
    :unwrap
    instance-of v0, p0, Ljava/lang/reflect/InvocationTargetException;
    if-eqz v0, :done
    invoke-virtual {p0}, Ljava/lang/Throwable;->getCause()Ljava/lang/Throwable;
    move-result-object v1
    if-eqz v1, :done
    move-object p0, v1
    goto :unwrap
    :done
    invoke-static {p0}, Ljava/lang/String;->valueOf(Ljava/lang/Object;)Ljava/lang/String;
    move-result-object v0
    return-object v0
.end method


# One answer line, flushed at once: the host waits for it.
.method private static reply(Ljava/lang/String;)V
    .locals 1
    sget-object v0, Ljava/lang/System;->out:Ljava/io/PrintStream;
    invoke-virtual {v0, p0}, Ljava/io/PrintStream;->println(Ljava/lang/String;)V
    invoke-virtual {v0}, Ljava/io/PrintStream;->flush()V
    return-void
.end method
