"""The labels the package ships in seven languages, so a theme need not write them.

A theme shows any of these by naming its code (``languages: [en, th]``, or the
display's ``--languages``); its own ``labels.<code>`` override single words.  A
word missing here falls back to English (:class:`~scoreboard.theme_values.Labels`'
defaults), and :meth:`~scoreboard.theme_values.Theme.label` then shows it once.

Codes are BCP 47: ``zh-Hant`` (Traditional, as in Macau, Hong Kong and Taiwan),
``zh-Hans`` (Simplified), ``ja``, ``ko``, ``vi``, ``th``; ``zh`` is kept as an
alias of ``zh-Hant`` (themes written before these shipped say ``zh``).  Terms are
the ones dealers and players use at the tables: 莊/閒/和, 庄/闲/和, バンカー/
プレイヤー/タイ, 뱅커/플레이어/타이, Nhà cái/Người chơi/Hòa, เจ้ามือ/ผู้เล่น/เสมอ.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

ALIASES: Mapping[str, str] = MappingProxyType({"zh": "zh-Hant"})
"""Older codes and the shipped language each stands for."""

_ZH_HANT = {
    "banker": "莊",
    "player": "閒",
    "tie": "和",
    "banker_pair": "莊對",
    "player_pair": "閒對",
    "natural": "例牌",
    "games": "局數",
    "bead_plate": "珠盤路",
    "big_road": "大路",
    "big_eye_boy": "大眼仔",
    "small_road": "小路",
    "cockroach_pig": "曱甴路",
    "predictions": "問路",
    "counters": "統計",
    "last_coup": "上一局",
    "limits": "限紅",
    "table": "枱",
    "game": "局",
    "shoe": "靴",
    "streak": "連",
    "longest": "最長",
    "minimum": "最低",
    "maximum": "最高",
    "pays": "賠率",
    "shuffling": "洗牌中",
    "shuffle_note": "新牌靴準備中",
    "waiting": "等待第一局",
    "disclaimer": "過往結果不代表未來結果。",
    "demo": "示範",
    "live": "即時",
    "connecting": "連線中",
    "offline": "離線",
    "controller_offline": "牌靴離線",
    "missing_games": "缺局",
    "cut_card_out": "最後一局",
    "banker_six": "莊六",
    "dragon7": "龍七",
    "panda8": "熊貓八",
    "display_fault": "顯示故障",
    "journal_failing": "記錄故障",
    "no_limits": "限紅 —",
    "earlier": "較早",
    "wins": "贏",
    "tie_result": "和局",
    "shoe_summary": "本靴統計",
    "min_bet": "最低投注",
    "max_bet": "最高投注",
    "game_voided": "第{game}局已取消",
    "games_voided": "第{games}局已取消",
    "game_corrected": "第{game}局已更正：{change}",
    "games_corrected": "第{games}局已更正",
    "added": "新增{what}",
    "removed": "取消{what}",
    "cards_changed": "牌面更改",
    "alerts": "警示",
    "shoe_offline": "牌靴離線",
    "shoe_error": "牌靴錯誤",
    "new_limits": "{time}起新限紅",
    "lobby_title": "百家樂賭桌",
    "lobby_page": "第 {page} / {pages} 頁",
    "lobby_stale": "{age}未更新",
    "lobby_stale_badge": "未更新",
    "lobby_waiting": "等待開桌",
    "lobby_waiting_badge": "等待",
    "lobby_no_tables": "等待賭桌",
    "lobby_offline": "未連線",
    "lobby_seconds": "{n}秒",
    "lobby_minutes": "{n}分鐘",
    "lobby_hours": "{n}小時",
    "lobby_pit": "{pit} 區",
}

_ZH_SHARED = (
    "tie",
    "natural",
    "big_road",
    "big_eye_boy",
    "small_road",
    "cockroach_pig",
    "last_coup",
    "game",
    "shoe",
    "minimum",
    "maximum",
    "shuffling",
    "waiting",
    "missing_games",
    "tie_result",
    "min_bet",
    "max_bet",
    "game_voided",
    "games_voided",
    "game_corrected",
    "games_corrected",
    "added",
    "removed",
    "cards_changed",
    "alerts",
    "lobby_stale",
    "lobby_stale_badge",
    "lobby_waiting_badge",
    "lobby_seconds",
)
"""The words Traditional and Simplified write alike (the rest of the Simplified ones follow)."""

_ZH_HANS = {
    **{key: _ZH_HANT[key] for key in _ZH_SHARED},
    "banker": "庄",
    "player": "闲",
    "banker_pair": "庄对",
    "player_pair": "闲对",
    "games": "局数",
    "bead_plate": "珠盘路",
    "predictions": "问路",
    "counters": "统计",
    "limits": "限红",
    "table": "台",
    "streak": "连",
    "longest": "最长",
    "pays": "赔率",
    "shuffle_note": "新牌靴准备中",
    "disclaimer": "过往结果不代表未来结果。",
    "demo": "演示",
    "live": "实时",
    "connecting": "连接中",
    "offline": "离线",
    "controller_offline": "牌靴离线",
    "cut_card_out": "最后一局",
    "banker_six": "庄六",
    "dragon7": "龙七",
    "panda8": "熊猫八",
    "display_fault": "显示故障",
    "journal_failing": "记录故障",
    "no_limits": "限红 —",
    "earlier": "较早",
    "wins": "赢",
    "shoe_summary": "本靴统计",
    "shoe_offline": "牌靴离线",
    "shoe_error": "牌靴错误",
    "new_limits": "{time}起新限红",
    "lobby_title": "百家乐赌台",
    "lobby_page": "第 {page} / {pages} 页",
    "lobby_waiting": "等待开台",
    "lobby_no_tables": "等待赌台",
    "lobby_offline": "未连接",
    "lobby_minutes": "{n}分钟",
    "lobby_hours": "{n}小时",
    "lobby_pit": "{pit} 区",
}

_JA = {
    "banker": "バンカー",
    "player": "プレイヤー",
    "tie": "タイ",
    "banker_pair": "バンカーペア",
    "player_pair": "プレイヤーペア",
    "natural": "ナチュラル",
    "games": "ゲーム数",
    "bead_plate": "ビーズプレート",
    "big_road": "ビッグロード",
    "big_eye_boy": "ビッグアイボーイ",
    "small_road": "スモールロード",
    "cockroach_pig": "コックローチピッグ",
    "predictions": "予測",
    "counters": "統計",
    "last_coup": "前回のハンド",
    "limits": "テーブルリミット",
    "table": "テーブル",
    "game": "ゲーム",
    "shoe": "シュー",
    "streak": "連勝",
    "longest": "最長",
    "minimum": "最小",
    "maximum": "最大",
    "pays": "配当",
    "shuffling": "シャッフル中",
    "shuffle_note": "新しいシューを準備中です",
    "waiting": "最初のゲームを待っています",
    "disclaimer": "過去の結果は将来の結果を示すものではありません。",
    "demo": "デモ",
    "live": "ライブ",
    "connecting": "接続中",
    "offline": "オフライン",
    "controller_offline": "シュー オフライン",
    "missing_games": "欠落ゲーム",
    "cut_card_out": "最終ハンド",
    "banker_six": "バンカー6",
    "dragon7": "ドラゴン7",
    "panda8": "パンダ8",
    "display_fault": "表示エラー",
    "journal_failing": "記録エラー",
    "no_limits": "リミット —",
    "earlier": "以前",
    "wins": "の勝ち",
    "tie_result": "タイ",
    "shoe_summary": "シューの集計",
    "min_bet": "最小ベット",
    "max_bet": "最大ベット",
    "game_voided": "ゲーム{game}は無効",
    "games_voided": "ゲーム{games}は無効",
    "game_corrected": "ゲーム{game}を訂正：{change}",
    "games_corrected": "ゲーム{games}を訂正",
    "added": "{what}を追加",
    "removed": "{what}を削除",
    "cards_changed": "カード変更",
    "alerts": "警告",
    "shoe_offline": "シュー オフライン",
    "shoe_error": "シュー エラー",
    "new_limits": "{time}から新リミット",
    "lobby_title": "バカラテーブル",
    "lobby_page": "{page} / {pages} ページ",
    "lobby_stale": "{age}更新なし",
    "lobby_stale_badge": "更新なし",
    "lobby_waiting": "テーブル待ち",
    "lobby_waiting_badge": "待機中",
    "lobby_no_tables": "テーブルを待っています",
    "lobby_offline": "未接続",
    "lobby_seconds": "{n}秒",
    "lobby_minutes": "{n}分",
    "lobby_hours": "{n}時間",
    "lobby_pit": "ピット{pit}",
}

_KO = {
    "banker": "뱅커",
    "player": "플레이어",
    "tie": "타이",
    "banker_pair": "뱅커 페어",
    "player_pair": "플레이어 페어",
    "natural": "내추럴",
    "games": "게임 수",
    "bead_plate": "비드 플레이트",
    "big_road": "빅로드",
    "big_eye_boy": "빅아이보이",
    "small_road": "스몰로드",
    "cockroach_pig": "콕로치피그",
    "predictions": "예측",
    "counters": "통계",
    "last_coup": "지난 핸드",
    "limits": "테이블 리밋",
    "table": "테이블",
    "game": "게임",
    "shoe": "슈",
    "streak": "연승",
    "longest": "최장",
    "minimum": "최소",
    "maximum": "최대",
    "pays": "배당",
    "shuffling": "셔플 중",
    "shuffle_note": "새 슈를 준비하고 있습니다",
    "waiting": "첫 게임을 기다리는 중",
    "disclaimer": "과거 결과는 미래 결과를 예측하지 않습니다.",
    "demo": "데모",
    "live": "라이브",
    "connecting": "연결 중",
    "offline": "오프라인",
    "controller_offline": "슈 오프라인",
    "missing_games": "누락 게임",
    "cut_card_out": "마지막 핸드",
    "banker_six": "뱅커 6",
    "dragon7": "드래곤 7",
    "panda8": "판다 8",
    "display_fault": "화면 오류",
    "journal_failing": "기록 오류",
    "no_limits": "리밋 —",
    "earlier": "이전",
    "wins": "승",
    "tie_result": "타이",
    "shoe_summary": "슈 요약",
    "min_bet": "최소 베팅",
    "max_bet": "최대 베팅",
    "game_voided": "게임 {game} 무효",
    "games_voided": "게임 {games} 무효",
    "game_corrected": "게임 {game} 정정: {change}",
    "games_corrected": "게임 {games} 정정",
    "added": "{what} 추가",
    "removed": "{what} 삭제",
    "cards_changed": "카드 변경",
    "alerts": "경고",
    "shoe_offline": "슈 오프라인",
    "shoe_error": "슈 오류",
    "new_limits": "{time}부터 새 리밋",
    "lobby_title": "바카라 테이블",
    "lobby_page": "{page} / {pages} 페이지",
    "lobby_stale": "{age} 동안 업데이트 없음",
    "lobby_stale_badge": "업데이트 없음",
    "lobby_waiting": "테이블 대기 중",
    "lobby_waiting_badge": "대기",
    "lobby_no_tables": "테이블 대기 중",
    "lobby_offline": "연결 없음",
    "lobby_seconds": "{n}초",
    "lobby_minutes": "{n}분",
    "lobby_hours": "{n}시간",
    "lobby_pit": "피트 {pit}",
}

_VI = {
    "banker": "Nhà cái",
    "player": "Người chơi",
    "tie": "Hòa",
    "banker_pair": "Đôi Nhà cái",
    "player_pair": "Đôi Người chơi",
    "natural": "Tự nhiên",
    "games": "Số ván",
    "bead_plate": "Bảng hạt",
    "big_road": "Đường lớn",
    "big_eye_boy": "Mắt lớn",
    "small_road": "Đường nhỏ",
    "cockroach_pig": "Đường gián",
    "predictions": "Dự đoán",
    "counters": "Thống kê",
    "last_coup": "Ván trước",
    "limits": "Giới hạn bàn",
    "table": "Bàn",
    "game": "Ván",
    "shoe": "Shoe",
    "streak": "Chuỗi",
    "longest": "Dài nhất",
    "minimum": "Tối thiểu",
    "maximum": "Tối đa",
    "pays": "Trả thưởng",
    "shuffling": "Đang xáo bài",
    "shuffle_note": "Đang chuẩn bị shoe mới",
    "waiting": "Đang chờ ván đầu tiên",
    "disclaimer": "Kết quả trước không dự báo kết quả sau.",
    "demo": "DEMO",
    "live": "TRỰC TIẾP",
    "connecting": "ĐANG KẾT NỐI",
    "offline": "NGOẠI TUYẾN",
    "controller_offline": "SHOE NGOẠI TUYẾN",
    "missing_games": "THIẾU VÁN",
    "cut_card_out": "VÁN CUỐI",
    "banker_six": "Nhà cái 6",
    "dragon7": "Rồng 7",
    "panda8": "Gấu trúc 8",
    "display_fault": "LỖI HIỂN THỊ",
    "journal_failing": "LỖI GHI",
    "no_limits": "Giới hạn —",
    "earlier": "Trước đó",
    "wins": "THẮNG",
    "tie_result": "HÒA",
    "shoe_summary": "Tổng kết shoe",
    "min_bet": "Cược tối thiểu",
    "max_bet": "Cược tối đa",
    "game_voided": "Ván {game} bị hủy",
    "games_voided": "Các ván {games} bị hủy",
    "game_corrected": "Ván {game} được sửa: {change}",
    "games_corrected": "Các ván {games} được sửa",
    "added": "Thêm {what}",
    "removed": "Bỏ {what}",
    "cards_changed": "đổi bài",
    "alerts": "CẢNH BÁO",
    "shoe_offline": "SHOE NGOẠI TUYẾN",
    "shoe_error": "LỖI SHOE",
    "new_limits": "Giới hạn mới từ {time}",
    "lobby_title": "Bàn Baccarat",
    "lobby_page": "Trang {page} / {pages}",
    "lobby_stale": "Không cập nhật {age}",
    "lobby_stale_badge": "KHÔNG CẬP NHẬT",
    "lobby_waiting": "Đang chờ bàn",
    "lobby_waiting_badge": "ĐANG CHỜ",
    "lobby_no_tables": "Đang chờ các bàn",
    "lobby_offline": "MẤT KẾT NỐI",
    "lobby_seconds": "{n} giây",
    "lobby_minutes": "{n} phút",
    "lobby_hours": "{n} giờ",
    "lobby_pit": "Khu {pit}",
}

_TH = {
    "banker": "เจ้ามือ",
    "player": "ผู้เล่น",
    "tie": "เสมอ",
    "banker_pair": "คู่เจ้ามือ",
    "player_pair": "คู่ผู้เล่น",
    "natural": "ป๊อก",
    "games": "จำนวนตา",
    "bead_plate": "บีดเพลท",
    "big_road": "บิ๊กโรด",
    "big_eye_boy": "บิ๊กอายบอย",
    "small_road": "สมอลโรด",
    "cockroach_pig": "ค็อกโรชพิก",
    "predictions": "ถามเค้าไพ่",
    "counters": "สถิติ",
    "last_coup": "ตาที่แล้ว",
    "limits": "วงเงินโต๊ะ",
    "table": "โต๊ะ",
    "game": "ตา",
    "shoe": "ชู",
    "streak": "ติดต่อกัน",
    "longest": "ยาวที่สุด",
    "minimum": "ต่ำสุด",
    "maximum": "สูงสุด",
    "pays": "อัตราจ่าย",
    "shuffling": "กำลังสับไพ่",
    "shuffle_note": "กำลังเตรียมชูใหม่",
    "waiting": "รอตาแรก",
    "disclaimer": "ผลที่ผ่านมาไม่ได้บอกผลในอนาคต",
    "demo": "สาธิต",
    "live": "สด",
    "connecting": "กำลังเชื่อมต่อ",
    "offline": "ออฟไลน์",
    "controller_offline": "ชูออฟไลน์",
    "missing_games": "ตาที่ขาดหาย",
    "cut_card_out": "ตาสุดท้าย",
    "banker_six": "เจ้ามือ 6",
    "dragon7": "มังกร 7",
    "panda8": "แพนด้า 8",
    "display_fault": "จอแสดงผลขัดข้อง",
    "journal_failing": "บันทึกขัดข้อง",
    "no_limits": "วงเงิน —",
    "earlier": "ก่อนหน้า",
    "wins": "ชนะ",
    "tie_result": "เสมอ",
    "shoe_summary": "สรุปชู",
    "min_bet": "เดิมพันต่ำสุด",
    "max_bet": "เดิมพันสูงสุด",
    "game_voided": "ยกเลิกตาที่ {game}",
    "games_voided": "ยกเลิกตาที่ {games}",
    "game_corrected": "แก้ไขตาที่ {game}: {change}",
    "games_corrected": "แก้ไขตาที่ {games}",
    "added": "เพิ่ม {what}",
    "removed": "ลบ {what}",
    "cards_changed": "เปลี่ยนไพ่",
    "alerts": "แจ้งเตือน",
    "shoe_offline": "ชูออฟไลน์",
    "shoe_error": "ชูขัดข้อง",
    "new_limits": "วงเงินใหม่ตั้งแต่ {time}",
    "lobby_title": "โต๊ะบาคาร่า",
    "lobby_page": "หน้า {page} / {pages}",
    "lobby_stale": "ไม่มีการอัปเดต {age}",
    "lobby_stale_badge": "ไม่อัปเดต",
    "lobby_waiting": "รอโต๊ะ",
    "lobby_waiting_badge": "รอ",
    "lobby_no_tables": "รอโต๊ะ",
    "lobby_offline": "ไม่มีสัญญาณ",
    "lobby_seconds": "{n} วินาที",
    "lobby_minutes": "{n} นาที",
    "lobby_hours": "{n} ชั่วโมง",
    "lobby_pit": "พิท {pit}",
}

TRANSLATIONS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "en": MappingProxyType({}),  # English: the Labels defaults
        "zh-Hant": MappingProxyType(_ZH_HANT),
        "zh-Hans": MappingProxyType(_ZH_HANS),
        "ja": MappingProxyType(_JA),
        "ko": MappingProxyType(_KO),
        "vi": MappingProxyType(_VI),
        "th": MappingProxyType(_TH),
    }
)
"""Each shipped language's labels by key (``Labels`` field names)."""

SHIPPED = tuple(TRANSLATIONS)
"""The shipped language codes, in the order they are listed."""


def canonical(code: str) -> str:
    """The shipped code ``code`` stands for (``zh`` → ``zh-Hant``; case as BCP 47 writes it).

    >>> canonical("zh"), canonical("ZH-hans"), canonical("TH"), canonical("xx")
    ('zh-Hant', 'zh-Hans', 'th', 'xx')
    """
    lowered = {c.lower(): c for c in (*SHIPPED, *ALIASES)}
    found = lowered.get(code.lower(), code)
    return ALIASES.get(found, found)


MAX_SHOWN = 3
"""The most languages a board shows at once (a theme's ``languages`` holds as many)."""


def parse_languages(codes: str | list[object], where: str = "--languages") -> tuple[str, ...]:
    """The shipped languages asked for (``"en,th"`` or a list), main first; ValueError says why.

    >>> parse_languages("en, TH"), parse_languages(["zh", "ja"])
    (('en', 'th'), ('zh-Hant', 'ja'))
    >>> parse_languages("en,xx")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --languages: unknown language 'xx' (shipped: en, zh-Hant, ..., th; zh is zh-Hant)
    """
    given = codes.split(",") if isinstance(codes, str) else codes
    found: list[str] = []
    for raw in given:
        if not isinstance(raw, str):
            raise ValueError(f"{where}: expected language codes, got {raw!r}")
        code = canonical(raw.strip())
        if code not in TRANSLATIONS:
            known = ", ".join(SHIPPED)
            raise ValueError(
                f"{where}: unknown language {raw.strip()!r} (shipped: {known}; zh is zh-Hant)"
            )
        if code in found:
            raise ValueError(f"{where}: {code} is given twice")
        found.append(code)
    if not 0 < len(found) <= MAX_SHOWN:
        raise ValueError(f"{where}: expected 1 to {MAX_SHOWN} languages, got {len(found)}")
    return tuple(found)


def rotated(languages: tuple[str, ...], seconds: float, now: float) -> tuple[str, ...]:
    """The languages shown at ``now`` when the second one rotates every ``seconds``
    (``display.rotate_languages``): the main one, then each of the others in turn.

    >>> [rotated(("en", "th", "ko"), 10, t) for t in (0, 9.9, 10, 25)]
    [('en', 'th'), ('en', 'th'), ('en', 'ko'), ('en', 'th')]
    >>> rotated(("en", "th"), 10, 15), rotated(("en", "th", "ko"), 0, 15)
    (('en', 'th'), ('en', 'th', 'ko'))
    """
    others = languages[1:]
    if seconds <= 0 or len(others) < 2:
        return languages
    return (languages[0], others[int(now // seconds) % len(others)])
