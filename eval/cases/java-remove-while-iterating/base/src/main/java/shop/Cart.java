package shop;

import java.util.ArrayList;
import java.util.List;

public final class Cart {
    private final List<Coupon> coupons = new ArrayList<>();

    public void add(Coupon coupon) {
        coupons.add(coupon);
    }

    public List<Coupon> coupons() {
        return List.copyOf(coupons);
    }
}
