package org.medjava.store.core.index;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Date and time matching keys are days of the calendar and times of the day, or a reason why not. */
class MatchingTest {

    @Test
    void datesAreDaysOfTheCalendar() {
        for (String ok : List.of("20240229", "2024.02.29", "19000101", "20231231", "20230101-20231231", "20230101-",
                "-20231231", "20230101\\20230102")) {
            assertThatCode(() -> Matching.validate("StudyDate", ok)).as(ok).doesNotThrowAnyException();
        }
        for (String bad : List.of("20231301", "20230229", "20230000", "20230132", "20230431")) {
            assertThatThrownBy(() -> Matching.validate("StudyDate", bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a day");
        }
        assertThatThrownBy(() -> Matching.validate("StudyDate", "20230101-20231399"))
                .hasMessageContaining("2023-13-99 is not a day");
        assertThatThrownBy(() -> Matching.validate("PatientBirthDate", "19991301\\20000101"))
                .hasMessageContaining("PatientBirthDate: '19991301'");
        assertThatThrownBy(() -> Matching.validate("StudyDate", "2023011")).hasMessageContaining("YYYYMMDD");
    }

    @Test
    void timesAreTimesOfTheDay() {
        for (String ok : List.of("08", "0800", "080000", "235960", "120000.123456", "12:00:00", "0800-1700",
                "-0800")) {
            assertThatCode(() -> Matching.validate("StudyTime", ok)).as(ok).doesNotThrowAnyException();
        }
        for (String bad : List.of("24", "2400", "0860", "120061", "0800-2500")) {
            assertThatThrownBy(() -> Matching.validate("StudyTime", bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hours run 00-23");
        }
        for (String bad : List.of("083", "08000", "0800.5", "120000.1234567", "noon")) {
            assertThatThrownBy(() -> Matching.validate("StudyTime", bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a time HHMMSS");
        }
    }
}
