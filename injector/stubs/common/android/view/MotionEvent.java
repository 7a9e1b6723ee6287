package android.view;

/** Test stand-in: keeps every field the injector passes to obtain() and setSource(). */
public final class MotionEvent extends InputEvent {
    private final long downTime;
    private final long eventTime;
    private final int action;
    private final float x;
    private final float y;
    private final float pressure;
    private final float size;
    private final int metaState;
    private final float xPrecision;
    private final float yPrecision;
    private final int deviceId;
    private final int edgeFlags;
    private int source;

    private MotionEvent(long downTime, long eventTime, int action, float x, float y, float pressure,
            float size, int metaState, float xPrecision, float yPrecision, int deviceId, int edgeFlags) {
        this.downTime = downTime;
        this.eventTime = eventTime;
        this.action = action;
        this.x = x;
        this.y = y;
        this.pressure = pressure;
        this.size = size;
        this.metaState = metaState;
        this.xPrecision = xPrecision;
        this.yPrecision = yPrecision;
        this.deviceId = deviceId;
        this.edgeFlags = edgeFlags;
    }

    public static MotionEvent obtain(long downTime, long eventTime, int action, float x, float y,
            float pressure, float size, int metaState, float xPrecision, float yPrecision, int deviceId,
            int edgeFlags) {
        return new MotionEvent(downTime, eventTime, action, x, y, pressure, size, metaState, xPrecision,
                yPrecision, deviceId, edgeFlags);
    }

    @Override
    public void setSource(int source) {
        this.source = source;
    }

    /** One line a test compares exactly. */
    @Override
    public String toString() {
        return "action=" + action + " x=" + x + " y=" + y + " down=" + downTime + " time=" + eventTime
                + " pressure=" + pressure + " size=" + size + " meta=" + metaState + " precision="
                + xPrecision + "," + yPrecision + " device=" + deviceId + " edge=" + edgeFlags
                + " source=0x" + Integer.toHexString(source);
    }
}
