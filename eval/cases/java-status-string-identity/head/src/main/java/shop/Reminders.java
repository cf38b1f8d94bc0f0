package shop;

import java.util.List;

public final class Reminders {
    private final Mailer mailer;

    public Reminders(Mailer mailer) {
        this.mailer = mailer;
    }

    public void send(List<Account> accounts) {
        for (Account account : accounts) {
            if (account.status() == "ACTIVE") {
                mailer.remind(account.email());
            }
        }
    }
}
