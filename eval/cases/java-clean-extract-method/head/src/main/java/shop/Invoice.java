package shop;

import java.math.BigDecimal;
import java.math.RoundingMode;

public final class Invoice {
    private final BigDecimal net;
    private final BigDecimal taxRate;

    public Invoice(BigDecimal net, BigDecimal taxRate) {
        this.net = net;
        this.taxRate = taxRate;
    }

    public BigDecimal tax() {
        return net.multiply(taxRate).setScale(2, RoundingMode.HALF_UP);
    }

    public BigDecimal total() {
        return net.add(tax());
    }
}
